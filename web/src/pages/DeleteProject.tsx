import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { Dialog } from '../components/Dialog.tsx';
import * as api from '../generated/index.ts';
import { appPath } from '../paths.ts';
import { useToast } from '../components/Toasts.tsx';
import { forgetProject, useProjects } from '../projects.tsx';

/**
 * The Settings tab's danger zone: deleting a project takes every event, insight, webhook and
 * destination with it, so the person types the project's name to confirm.
 */
export function DeleteProjectSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const { projects, reload } = useProjects();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const name = projects?.find((project) => project.id === projectId)?.name;
  const confirmed = name !== undefined && typed === name;

  const close = () => {
    setOpen(false);
    setTyped('');
  };

  const remove = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    try {
      await api.deleteProject({ path: { projectId } });
      forgetProject(projectId);
      toast.success(`Project “${name}” deleted`);
      await reload();
      navigate(appPath('/projects'), { replace: true });
    } catch (failure) {
      toast.error(failure, 'Could not delete the project');
      setBusy(false);
    }
  };

  return (
    <section className="card settings-section danger-zone" aria-labelledby="delete-project-title">
      <h2 id="delete-project-title">Delete project</h2>
      <p className="muted">
        Deletes the project and everything in it: events, insights, incoming webhooks, destinations and push subscriptions. This cannot be undone.
      </p>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)} disabled={name === undefined}>
        Delete this project…
      </button>
      <Dialog
        open={open}
        title="Delete project?"
        onClose={close}
        actions={
          <>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" form="delete-project" className="button button-danger" disabled={!confirmed || busy}>
              {busy ? 'Deleting…' : 'Delete project'}
            </button>
          </>
        }
      >
        <form id="delete-project" onSubmit={(event) => void remove(event)}>
          <p>
            Everything in <strong>{name}</strong> is deleted for good. Type the project&rsquo;s name to confirm.
          </p>
          <label className="field">
            <span>Project name</span>
            <input name="confirmProjectName" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={name} data-autofocus />
          </label>
        </form>
      </Dialog>
    </section>
  );
}

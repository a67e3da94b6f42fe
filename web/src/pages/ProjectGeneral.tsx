import { type FormEvent, useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { useToast } from '../components/Toasts.tsx';
import * as api from '../generated/index.ts';
import { COUNT_CAP, eventsOlderThan } from './retentionCount.ts';
import { useProjects } from '../projects.tsx';

/** Settings tab: the project's name and how long its events are kept. */
export function ProjectGeneralSection({ projectId }: { projectId: string }) {
  const { projects, reload } = useProjects();
  const toast = useToast();
  const project = projects?.find((candidate) => candidate.id === projectId);
  const [name, setName] = useState('');
  const [retention, setRetention] = useState('');
  const [busy, setBusy] = useState(false);
  // A lower retention deletes events at once: it is saved only after a confirmation that says how many.
  const [pending, setPending] = useState<{ days: number; count: number } | null>(null);

  // Filled once the project is known, not again on every reload: typing is never overwritten.
  const loaded = project !== undefined;
  useEffect(() => {
    if (!project) return;
    setName(project.name);
    setRetention(project.retentionDays == null ? '' : String(project.retentionDays));
  }, [loaded, projectId]);

  const save = async () => {
    setBusy(true);
    try {
      const retentionDays = retention.trim() === '' ? null : Number(retention);
      const saved = await api.updateProject({ path: { projectId }, body: { name, retentionDays } });
      await reload();
      setPending(null);
      toast.success(`Project “${saved.name}” saved`);
    } catch (error) {
      toast.error(error, 'Could not save the project');
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const days = retention.trim() === '' ? null : Number(retention);
    const current = project?.retentionDays ?? null;
    if (days !== null && Number.isInteger(days) && days >= 1 && (current === null || days < current)) {
      setBusy(true);
      try {
        const count = await eventsOlderThan(projectId, days);
        if (count > 0) return setPending({ days, count });
      } catch (error) {
        return toast.error(error, 'Could not count the events that would be deleted');
      } finally {
        setBusy(false);
      }
    }
    await save();
  };

  const howMany = pending
    ? pending.count > COUNT_CAP
      ? `more than ${COUNT_CAP.toLocaleString()} events`
      : pending.count === 1
        ? '1 event'
        : `${pending.count.toLocaleString()} events`
    : '';
  return (
    <section className="card" aria-labelledby="project-general">
      <h2 id="project-general">General</h2>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <label className="field">
          <span>Project name</span>
          <input name="projectName" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Keep events for (days; empty keeps them forever)</span>
          <input name="retentionDays" type="number" min={1} max={36500} step={1} value={retention} onChange={(e) => setRetention(e.target.value)} />
        </label>
        <button type="submit" className="button button-primary" disabled={busy || !project}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </form>
      <ConfirmDialog
        open={pending !== null}
        title={`Delete ${howMany}?`}
        message={
          <p>
            Keeping events for {pending?.days} days deletes the {howMany} of this project older than that, within a minute. This cannot be undone.
          </p>
        }
        confirmLabel={`Delete ${howMany} and save`}
        danger
        busy={busy}
        onConfirm={() => void save()}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

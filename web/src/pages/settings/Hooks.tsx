import { type FormEvent, useState } from 'react';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { Hook } from '../../types.ts';
import { HookRow } from './HookRow.tsx';
import { useLiveRecords } from './useLiveRecords.ts';

export function HooksSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const {
    records: hooks,
    error,
    reload: load,
    add,
    replace,
    remove: forget,
  } = useLiveRecords((signal) => api.listHooks({ path: { projectId } }, { signal }), projectId, 'hook');
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [template, setTemplate] = useState('');
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Hook | null>(null);
  const fields = useFieldErrors({ name: ['name'], category: ['category'] });

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    fields.clear();
    try {
      const hook = await api.createHook({ path: { projectId }, body: { name, category, template: template || null } });
      add(hook);
      setName('');
      setCategory('');
      setTemplate('');
      toast.success(`Incoming webhook “${hook.name}” created`);
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not create the webhook');
    } finally {
      setBusy(false);
    }
  };

  const toggle = async (hook: Hook) => {
    try {
      const path = { hookId: hook.id };
      replace(await (hook.enabled ? api.pauseHook({ path }) : api.resumeHook({ path })));
    } catch (failure) {
      toast.error(failure, hook.enabled ? 'Could not pause the webhook' : 'Could not resume the webhook');
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await api.deleteHook({ path: { hookId: deleting.id } });
      forget(deleting.id);
      toast.success('Webhook deleted');
      setDeleting(null);
    } catch (failure) {
      toast.error(failure, 'Could not delete the webhook');
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="hooks-title">
      <h2 id="hooks-title">Incoming webhooks</h2>
      <p className="muted">
        A secret URL that creates events without an API key. The first line of a plain-text body becomes the title, the rest the description. Anyone with the
        URL can post events: if it leaks, delete it and create a new one.
      </p>
      <form className="inline-form" onSubmit={(event) => void create(event)} noValidate>
        <label className="field grow">
          <span>Name</span>
          <input
            name="hookName"
            required
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fields.clear('name');
            }}
            placeholder="Stripe payments"
            {...fields.describe('name')}
          />
          {fields.message('name')}
        </label>
        <label className="field grow">
          <span>Default category</span>
          <input
            name="hookCategory"
            required
            maxLength={100}
            value={category}
            onChange={(e) => {
              setCategory(e.target.value);
              fields.clear('category');
            }}
            placeholder="payments"
            {...fields.describe('category')}
          />
          {fields.message('category')}
        </label>
        <div className="field">
          <label htmlFor="hook-template">Payload</label>
          <select id="hook-template" name="hookTemplate" value={template} onChange={(e) => setTemplate(e.target.value)}>
            <option value="">Event fields or text</option>
            <option value="github">GitHub webhook</option>
            <option value="grafana">Grafana alert</option>
            <option value="alertmanager">Alertmanager alert</option>
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create webhook'}
        </button>
      </form>
      <ErrorBanner what="Could not load webhooks" error={error} onRetry={load} />
      {hooks === null && !error && <Skeleton rows={2} what="webhooks" />}
      {hooks?.length === 0 && <p className="muted">No incoming webhooks yet.</p>}
      <ul className="row-list">
        {hooks?.map((hook) => (
          <HookRow key={hook.id} hook={hook} onChanged={replace} onToggle={() => void toggle(hook)} onDelete={() => setDeleting(hook)} />
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        message={<p>The URL of “{deleting?.name}” stops working immediately: anything still posting to it gets 404. This cannot be undone.</p>}
        confirmLabel="Delete webhook"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

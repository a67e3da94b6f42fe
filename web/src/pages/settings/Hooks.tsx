import { type FormEvent, useState } from 'react';
import { post } from '../../api.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { maskSecret, Secret } from '../../components/Secret.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import { useToast } from '../../components/Toasts.tsx';
import type { Hook } from '../../types.ts';
import { useLiveRecords } from './useLiveRecords.ts';

function hookCurl(hook: Hook): string {
  return `curl -X POST '${hook.url}' \\\n  -H "Content-Type: text/plain" \\\n  --data-binary $'Payment received\\nOrder #1042 paid in full'`;
}

export function HooksSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const hooksUrl = `/api/projects/${encodeURIComponent(projectId)}/hooks`;
  const { records: hooks, error, reload: load, add, replace, remove: forget } = useLiveRecords<Hook>(hooksUrl, 'hook');
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
      const hook = await post<Hook>(hooksUrl, { name, category, template: template || null });
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
      replace(await post<Hook>(`/api/hooks/${encodeURIComponent(hook.id)}/${hook.enabled ? 'pause' : 'resume'}`));
    } catch (failure) {
      toast.error(failure, hook.enabled ? 'Could not pause the webhook' : 'Could not resume the webhook');
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await post(`/api/hooks/${encodeURIComponent(deleting.id)}/delete`);
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
        A secret URL that creates events without an API key. The first line of a plain-text body becomes the title, the rest the
        description. Anyone with the URL can post events: if it leaks, delete it and create a new one.
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
      {error && (
        <div className="banner banner-error" role="alert">
          <span>Could not load webhooks: {error}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {hooks === null && !error && <Skeleton rows={2} what="webhooks" />}
      {hooks?.length === 0 && <p className="muted">No incoming webhooks yet.</p>}
      <ul className="row-list">
        {hooks?.map((hook) => (
          <li key={hook.id} className="row" data-testid="hook-row">
            <div className="row-head">
              <strong>{hook.name}</strong>
              <span className="chip">#{hook.category}</span>
              {hook.template && <span className="chip">{hook.template} payloads</span>}
              <span className={hook.enabled ? 'status status-ok' : 'status status-off'}>{hook.enabled ? 'Enabled' : 'Paused'}</span>
              <span className="muted small">
                created <RelativeTime iso={hook.createdAt} />
              </span>
            </div>
            <Secret value={hook.url} label={`Webhook URL for ${hook.name}`} what={`URL of ${hook.name}`} testId="hook-url" />
            <details className="example" open>
              <summary>Example request</summary>
              {/* The URL's last segment is its token: hidden here as in the field above. */}
              <pre className="code">{maskSecret(hookCurl(hook), hook.url.slice(hook.url.lastIndexOf('/') + 1))}</pre>
              <CopyButton text={hookCurl(hook)} what="example request" />
              <p className="muted small">
                Override with headers <code>Title</code>, <code>Category</code>, <code>Tags: plan=pro,region=eu</code>,{' '}
                <code>Notify: 1</code>, or send JSON with <code>Content-Type: application/json</code>. Icons go in the query string:{' '}
                <code>?icon=%F0%9F%92%B0</code>.
              </p>
            </details>
            <div className="row-actions">
              <button type="button" className="button button-small" onClick={() => void toggle(hook)}>
                {hook.enabled ? 'Pause' : 'Resume'}
              </button>
              <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(hook)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        message={
          <p>
            The URL of “{deleting?.name}” stops working immediately: anything still posting to it gets 404. This cannot be undone.
          </p>
        }
        confirmLabel="Delete webhook"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

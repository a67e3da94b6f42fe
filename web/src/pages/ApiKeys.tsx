import { type FormEvent, useState } from 'react';
import { post } from '../api.ts';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { useFieldErrors } from '../components/FieldError.tsx';
import { Secret } from '../components/Secret.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import type { ApiKey, CreatedKey, RevokedKey } from '../types.ts';
import { useLoaded } from '../useLoaded.ts';

export function ApiKeysPage() {
  const toast = useToast();
  const { data: keys, error, reload: load, setData: setKeys } = useLoaded<ApiKey[]>('/api/keys');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [name, setName] = useState('');
  const fields = useFieldErrors({ name: ['name'] });

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    fields.clear();
    try {
      setCreated(await post<CreatedKey>('/api/keys', name.trim() ? { name } : {}));
      setName('');
      void load();
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not create a key');
    } finally {
      setCreating(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    try {
      const result = await post<RevokedKey>(`/api/keys/${encodeURIComponent(revoking.id)}/revoke`);
      setKeys((list) => list?.map((key) => (key.id === result.id ? { ...key, revokedAt: result.revokedAt } : key)) ?? null);
      toast.success(`Key ${revoking.name ?? `${revoking.prefix}…`} revoked`);
      setRevoking(null);
    } catch (failure) {
      toast.error(failure, 'Could not revoke the key');
    }
  };

  return (
    <main className="page page-narrow">
      <h1>API keys</h1>
      <p className="muted">
        Keys authenticate every call to the JSON API with <code>Authorization: Bearer ev_…</code>. A key is shown once, when it is
        created. A lost key cannot be recovered: revoke it and create a new one.
      </p>
      <form className="card inline-form" onSubmit={(e) => void create(e)} aria-label="Create an API key" noValidate>
        <label className="field grow">
          <span>Name (optional)</span>
          <input
            name="keyName"
            value={name}
            maxLength={100}
            placeholder="e.g. CI deploys"
            onChange={(e) => {
              setName(e.target.value);
              fields.clear('name');
            }}
            {...fields.describe('name')}
          />
          {fields.message('name')}
        </label>
        <button type="submit" className="button button-primary" disabled={creating}>
          {creating ? 'Creating…' : 'Create API key'}
        </button>
      </form>
      {error && (
        <div className="banner banner-error" role="alert">
          <span>Could not load keys: {error}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {keys === null && !error && <Skeleton what="keys" />}
      {keys?.length === 0 && <p className="empty">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div className="table-wrap">
          <table className="table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-testid="key-row">
                  <td data-testid="key-name">{key.name ?? <span className="muted">Unnamed</span>}</td>
                  <td className="mono">{key.prefix}…</td>
                  <td>
                    <RelativeTime iso={key.createdAt} />
                  </td>
                  <td>
                    <RelativeTime iso={key.lastUsedAt} />
                  </td>
                  <td>
                    {key.revokedAt ? (
                      <span className="status status-off">
                        Revoked <RelativeTime iso={key.revokedAt} />
                      </span>
                    ) : (
                      <span className="status status-ok">Active</span>
                    )}
                  </td>
                  <td className="num">
                    {!key.revokedAt && (
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setRevoking(key)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Dialog
        open={created !== null}
        title="Your new API key"
        onClose={() => setCreated(null)}
        actions={
          <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
            I have saved it
          </button>
        }
      >
        {created && (
          <>
            <p className="banner banner-warning" role="alert">
              Copy this key now. It is shown only this once and cannot be recovered later.
            </p>
            <Secret value={created.key} label={created.name ? `New API key “${created.name}”` : 'New API key'} what="API key" testId="new-key" autoFocus />
          </>
        )}
      </Dialog>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        message={<p>Every request using {revoking?.name ? `“${revoking.name}” (${revoking.prefix}…)` : `${revoking?.prefix}…`} will be refused from now on. This cannot be undone.</p>}
        confirmLabel="Revoke key"
        danger
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />
    </main>
  );
}

import { useState } from 'react';
import { post } from '../api.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import type { ApiKey, CreatedKey } from '../types.ts';
import { useLoaded } from '../useLoaded.ts';

export function ApiKeysPage() {
  const toast = useToast();
  const { data: keys, error, reload: load, setData: setKeys } = useLoaded<ApiKey[]>('/api/keys');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = async () => {
    setCreating(true);
    try {
      setCreated(await post<CreatedKey>('/api/keys'));
      void load();
    } catch (failure) {
      toast.error(failure, 'Could not create a key');
    } finally {
      setCreating(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    try {
      const result = await post<{ id: string; revokedAt: string }>(`/api/keys/${encodeURIComponent(revoking.id)}/revoke`);
      setKeys((list) => list?.map((key) => (key.id === result.id ? { ...key, revokedAt: result.revokedAt } : key)) ?? null);
      toast.success(`Key ${revoking.prefix}… revoked`);
      setRevoking(null);
    } catch (failure) {
      toast.error(failure, 'Could not revoke the key');
    }
  };

  return (
    <main className="page page-narrow">
      <div className="page-head">
        <h1>API keys</h1>
        <button type="button" className="button button-primary" disabled={creating} onClick={() => void create()}>
          {creating ? 'Creating…' : 'Create API key'}
        </button>
      </div>
      <p className="muted">
        Keys authenticate every call to the JSON API with <code>Authorization: Bearer ev_…</code>. A key is shown once, when it is
        created. A lost key cannot be recovered: revoke it and create a new one.
      </p>
      {error && (
        <div className="banner banner-error" role="alert">
          <span>Could not load keys: {error}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {keys === null && !error && <p className="muted">Loading keys…</p>}
      {keys?.length === 0 && <p className="empty">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div className="table-wrap">
          <table className="table" aria-label="API keys">
            <thead>
              <tr>
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
            <div className="secret-line">
              <label className="visually-hidden" htmlFor="new-key">
                New API key
              </label>
              <input id="new-key" className="mono" readOnly value={created.key} onFocus={(e) => e.target.select()} data-testid="new-key" data-autofocus />
              <CopyButton text={created.key} what="API key" />
            </div>
          </>
        )}
      </Dialog>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        message={<p>Every request using {revoking?.prefix}… will be refused from now on. This cannot be undone.</p>}
        confirmLabel="Revoke key"
        danger
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />
    </main>
  );
}

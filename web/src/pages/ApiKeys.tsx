import { useState } from 'react';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { Secret } from '../components/Secret.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import { useProjects } from '../projects.tsx';
import type { ApiKey, CreatedKey } from '../types.ts';
import { BrowserSnippet } from './apiKeys/BrowserSnippet.tsx';
import { CreateKeyForm } from './apiKeys/CreateKeyForm.tsx';
import { KeysTable } from './apiKeys/KeysTable.tsx';
import './apiKeys/apiKeys.css';

export function ApiKeysPage() {
  const toast = useToast();
  const { projects } = useProjects();
  const { data: keys, error, reload: load, setData: setKeys } = useResource((signal) => api.listKeys({ signal }), []);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const revoke = async () => {
    if (!revoking) return;
    try {
      const result = await api.revokeKey({ path: { keyId: revoking.id } });
      setKeys((list) => list?.map((key) => (key.id === result.id ? { ...key, revokedAt: result.revokedAt } : key)) ?? null);
      toast.success(`Key ${revoking.name ?? `${revoking.prefix}…`} revoked`);
      setRevoking(null);
    } catch (failure) {
      toast.error(failure, 'Could not revoke the key');
    }
  };

  return (
    <main className="page page-narrow">
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Keys authenticate every call to the JSON API with <code>Authorization: Bearer ev_…</code>. A key is shown once, when it is created. A lost key
            cannot be recovered: revoke it and create a new one.
          </>
        }
      />
      {error ? (
        <ErrorBanner what="Could not load keys" error={error} onRetry={load} />
      ) : (
        <CreateKeyForm
          projects={projects}
          onCreated={(key) => {
            setCreated(key);
            void load();
          }}
        />
      )}
      {keys === null && !error && <Skeleton what="keys" />}
      {keys?.length === 0 && <p className="empty">No keys yet.</p>}
      {keys && keys.length > 0 && <KeysTable keys={keys} projects={projects} onRevoke={setRevoking} />}

      <Dialog
        open={created !== null}
        title="Your new API key"
        wide={Boolean(created?.origins)}
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
            {created.access === 'ingest' && created.origins && <BrowserSnippet created={created} projects={projects} />}
          </>
        )}
      </Dialog>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        message={
          <p>
            Every request using {revoking?.name ? `“${revoking.name}” (${revoking.prefix}…)` : `${revoking?.prefix}…`} will be refused from now on. This cannot
            be undone.
          </p>
        }
        confirmLabel="Revoke key"
        danger
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />
    </main>
  );
}

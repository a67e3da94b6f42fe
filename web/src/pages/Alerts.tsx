import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { useToast } from '../components/Toasts.tsx';
import * as api from '../generated/index.ts';
import type { Alert } from '../types.ts';
import { AlertForm } from './alerts/AlertForm.tsx';
import type { AlertSeed } from './alerts/alertFormWords.ts';
import { AlertRow } from './alerts/AlertRow.tsx';
import { useProjectAlerts } from './alerts/useProjectAlerts.ts';
import './alerts/alerts.css';

/** The feed's filters handed over by "Alert me…" (`?new=1&category=...&tag=...`), if any. */
function seedOf(params: URLSearchParams): AlertSeed | null {
  if (params.get('new') !== '1') return null;
  return {
    category: params.get('category') ?? undefined,
    tags: params.getAll('tag'),
    userId: params.get('user_id') ?? undefined,
    search: params.get('search') ?? undefined,
  };
}

/** The Alerts tab: each alert's state and condition, create and edit, mute, enable, history. */
export function AlertsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const { data: alerts, error, reload, setData } = useProjectAlerts(projectId);
  const [params, setParams] = useSearchParams();
  const seed = seedOf(params);
  const [editing, setEditing] = useState<Alert | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Alert | null>(null);
  const formOpen = editing !== null || seed !== null;
  // `?alert=<id>` (the projects page, a mail) shows that alert; `&mute=1` offers its Mute choice.
  const linkedId = params.get('alert');
  const offerMute = params.get('mute') === '1';
  const linkedGone = linkedId !== null && alerts !== null && !alerts.some((alert) => alert.id === linkedId);

  const closeForm = () => {
    setEditing(null);
    if (seed) setParams(new URLSearchParams(), { replace: true });
  };
  const replace = (alert: Alert) =>
    setData((list) => (list?.some((a) => a.id === alert.id) ? list.map((a) => (a.id === alert.id ? alert : a)) : [...(list ?? []), alert]));
  const remove = async () => {
    if (!deleting) return;
    try {
      await api.deleteAlert({ path: { alertId: deleting.id } });
      setData((list) => list?.filter((a) => a.id !== deleting.id) ?? null);
      toast.success('Alert deleted');
      setDeleting(null);
    } catch (failure) {
      toast.error(failure, 'Could not delete the alert');
    }
  };

  return (
    <main className="page alerts-page">
      <PageHeader
        title="Alerts"
        actions={
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            New alert
          </button>
        }
        subtitle="An alert fires when the count of matching events in a sliding window crosses its threshold, and resolves when it no longer does. Each change creates a notify event, so destinations and push notifications hear of it."
      />
      <ErrorBanner what="Could not load alerts" error={error} onRetry={reload} />
      {linkedGone && (
        <div className="banner banner-warning" role="status" data-testid="alert-link-gone">
          <span>The alert this link named is no longer in this project: it was deleted, or the link is for another project.</span>
        </div>
      )}
      {!alerts && !error && <Skeleton what="alerts" />}
      {alerts?.length === 0 && <p className="card muted">No alerts yet. Create one here, or use “Alert me…” in the feed to start from its filters.</p>}
      <ul className="alert-list">
        {alerts?.map((alert) => (
          <AlertRow
            key={alert.id}
            projectId={projectId}
            alert={alert}
            onChanged={replace}
            onEdit={setEditing}
            onDelete={setDeleting}
            linked={alert.id === linkedId}
            offerMute={alert.id === linkedId && offerMute}
          />
        ))}
      </ul>
      {formOpen && (
        <AlertForm
          projectId={projectId}
          alert={editing !== null && editing !== 'new' ? editing : undefined}
          seed={seed ?? undefined}
          onSaved={(alert) => {
            replace(alert);
            toast.success(editing !== null && editing !== 'new' ? 'Alert saved' : `Alert “${alert.name}” created`);
            closeForm();
          }}
          onClose={closeForm}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this alert?"
        message={<p>“{deleting?.name}” and its history will be removed. Events it created stay in the feed.</p>}
        confirmLabel="Delete alert"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </main>
  );
}

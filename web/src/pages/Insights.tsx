import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import type { Insight } from '../types.ts';
import { InsightEditor } from './InsightEditor.tsx';
import { InsightValue } from './insights/InsightValue.tsx';
import './insights/insights.css';

export function InsightsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const previous = useRef(new Map<number, string>());
  const [editing, setEditing] = useState<Insight | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Insight | null>(null);
  const [busy, setBusy] = useState(false);

  const {
    data,
    error,
    reload: load,
    setData,
  } = useResource(
    async (signal) => {
      const list = await api.listInsights({ query: { project: projectId } }, { signal });
      // Cards whose value moved since the last load flash once.
      const changed = new Set<number>();
      for (const insight of list) {
        const before = previous.current.get(insight.id);
        if (before !== undefined && before !== insight.updatedAt) changed.add(insight.id);
      }
      previous.current = new Map(list.map((insight) => [insight.id, insight.updatedAt]));
      return { insights: list, changed };
    },
    [projectId],
    { live: (message) => message.type.startsWith('insight.') || message.type === 'import.completed' },
  );
  useEffect(() => {
    if (error) toast.error(error, 'Could not load insights');
  }, [error, toast]);
  const insights = data?.insights ?? null;
  const changed = data?.changed ?? new Set<number>();

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.deleteInsight({ path: { insightId: String(deleting.id) } });
      const id = deleting.id;
      setData((shown) => shown && { ...shown, insights: shown.insights.filter((item) => item.id !== id) });
      toast.success(`Insight “${deleting.title}” deleted`);
      setDeleting(null);
    } catch (failure) {
      toast.error(failure, 'Could not delete the insight');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page">
      <PageHeader
        title="Insights"
        actions={
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            New insight
          </button>
        }
      />
      <ErrorBanner what="Could not load insights" error={error} onRetry={load} />
      {insights === null && !error && <p className="muted">Loading insights…</p>}
      {insights?.length === 0 && (
        <div className="empty">
          <p>
            <strong>No insights yet.</strong> An insight is a named value you keep up to date, such as “Active users”.
          </p>
          <pre className="code">{`curl -X POST ${window.location.origin}/api/insight \\
  -H "Authorization: Bearer $EVENTLOG_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"project":"${projectId}","title":"Active users","value":42,"icon":"👥"}'`}</pre>
        </div>
      )}
      {insights && insights.length > 0 && (
        <ul className="insight-grid" aria-live="polite">
          {insights.map((insight) => (
            <li
              key={`${insight.id}-${insight.updatedAt}`}
              className={changed.has(insight.id) ? 'card insight flash' : 'card insight'}
              data-testid="insight-card"
            >
              <div className="insight-head">
                <span className="insight-icon" aria-hidden="true">
                  {insight.icon || '◆'}
                </span>
                <h2 className="insight-title">{insight.title}</h2>
              </div>
              <InsightValue value={insight.value} />
              <p className="muted small">
                Updated <RelativeTime iso={insight.updatedAt} />
              </p>
              <div className="row-actions">
                <button type="button" className="button button-small" onClick={() => setEditing(insight)} aria-label={`Edit ${insight.title}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  onClick={() => setDeleting(insight)}
                  aria-label={`Delete ${insight.title}`}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <InsightEditor projectId={projectId} insight={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => void load()} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete insight?"
        message={<p>“{deleting?.title}” disappears from this project. Clients that update it will create it again.</p>}
        confirmLabel="Delete insight"
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </main>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, get, post, withQuery } from '../api.ts';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { RESYNC, useLive } from '../live.tsx';
import type { Insight } from '../types.ts';
import { InsightEditor } from './InsightEditor.tsx';
import { InsightValue } from './insights/InsightValue.tsx';
import './insights/insights.css';

const REFRESH_DELAY_MS = 250;

export function InsightsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [insights, setInsights] = useState<Insight[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState<Set<number>>(new Set());
  const previous = useRef(new Map<number, string>());
  const [editing, setEditing] = useState<Insight | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Insight | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const list = await get<Insight[]>(withQuery('/api/insights', { project: projectId }));
      // Cards whose value moved since the last load flash once.
      const moved = new Set<number>();
      for (const insight of list) {
        const before = previous.current.get(insight.id);
        if (before !== undefined && before !== insight.updatedAt) moved.add(insight.id);
      }
      previous.current = new Map(list.map((insight) => [insight.id, insight.updatedAt]));
      setChanged(moved);
      setInsights(list);
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
      toast.error(failure, 'Could not load insights');
    }
  }, [projectId, toast]);

  useEffect(() => {
    void load();
  }, [load]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLive((message) => {
    if (!message.type.startsWith('insight.') && message.type !== 'import.completed' && message.type !== RESYNC) return;
    // Throttled: a busy stream of updates refreshes a few times a second, never starves.
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void load();
    }, REFRESH_DELAY_MS);
  });

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await post(`/api/insight/${deleting.id}/delete`);
      const id = deleting.id;
      setInsights((list) => list?.filter((item) => item.id !== id) ?? null);
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
      <div className="section-head">
        <h1>Insights</h1>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          New insight
        </button>
      </div>
      {error && (
        <div className="banner banner-error" role="alert">
          <span>Could not load insights: {error}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
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
        <InsightEditor
          projectId={projectId}
          insight={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => void load()}
        />
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

import { useEffect } from 'react';
import { Link } from 'wouter';
import { withQuery } from '../../api.ts';
import { DateAndTime, RelativeTime } from '../../components/Time.tsx';
import { useResource } from '../../components/useResource.ts';
import * as api from '../../generated/index.ts';
import type { Alert, AlertHistoryPage } from '../../types.ts';
import { durationInWords } from './alertWords.ts';

/** How often the count shown is read again: it is "now", so it must not grow stale. */
const RECOUNT_MS = 15_000;

/** `code` spans of the words in <code>, the rest as text: the condition never shows backticks. */
export function WithCode({ text }: { text: string }) {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : <span key={index}>{part}</span>));
}

/** A clock time today, else a short date and time: "3:12 PM", "Sat 29 Nov, 3:12 PM". */
export function clockOrDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const clock = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return clock;
  return `${date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}, ${clock}`;
}

/**
 * The count of matching events in the alert's window as of now (the alert's own count is the last
 * evaluation's, which may be minutes old), with the time it was read; before the first evaluation
 * of a new alert, why there is none yet.
 */
export function AlertCount({ projectId, alert }: { projectId: string; alert: Alert }) {
  const filterKey = JSON.stringify([alert.filter, alert.condition.windowSeconds]);
  // A failed recount keeps the last count shown: the alert's own count is still there to read.
  const { data: current, reload } = useResource(
    async (signal) => {
      const [filter, windowSeconds] = JSON.parse(filterKey) as [Alert['filter'], number];
      const result = await api.previewAlertFilter({ path: { projectId }, body: { filter, windowSeconds } }, { signal });
      return { count: result.count, at: new Date().toISOString() };
    },
    [projectId, filterKey],
  );
  useEffect(() => {
    const timer = setInterval(() => void reload(), RECOUNT_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const window = durationInWords(alert.condition.windowSeconds);
  if (alert.count === null) {
    const firstCheck = new Date(Date.parse(alert.createdAt) + alert.condition.windowSeconds * 1000).toISOString();
    return (
      <span data-testid="alert-count">
        Not checked yet: the first check is when its first {window} window ends, <RelativeTime iso={firstCheck} />
        {current && ` (${current.count} so far)`}
      </span>
    );
  }
  return (
    <span data-testid="alert-count">
      <strong>{current ? current.count : alert.count}</strong> matching {(current?.count ?? alert.count) === 1 ? 'event' : 'events'} in the last {window}
      {current ? `, as of ${clockOrDate(current.at)}` : ''}
    </span>
  );
}

/** Transitions newest first, each at its date and time (and how long ago), with the event it wrote. */
export function AlertHistory({ alert, history }: { alert: Alert; history: AlertHistoryPage }) {
  return (
    <ul className="alert-history" aria-label={`History of ${alert.name}`} data-testid="alert-history">
      {history.transitions.length === 0 && <li className="muted">No transitions yet.</li>}
      {history.transitions.map((transition) => (
        <li key={transition.at + transition.state}>
          <span className={`badge ${transition.state === 'firing' ? 'badge-firing' : 'badge-ok'}`}>{transition.state === 'firing' ? 'Fired' : 'Resolved'}</span>{' '}
          <DateAndTime iso={transition.at} />{' '}
          <span className="muted">
            (<RelativeTime iso={transition.at} />)
          </span>{' '}
          with {transition.count} {transition.count === 1 ? 'event' : 'events'} ·{' '}
          <Link href={withQuery('/', { tag: `alert:${alert.id}` })}>its events in the feed</Link>
        </li>
      ))}
    </ul>
  );
}

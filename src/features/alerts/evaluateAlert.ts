import { type Db, type Sql, withTransaction } from '../../db/client.ts';
import { writeEventsInTransaction } from '../events/writeEventsInTransaction.ts';
import { alertEventDraft } from './alertEvent.ts';
import { advanceAlert, countWindow, insertTransition, nthNewest, recordCount } from './engineQueries.ts';
import { desiredState, isMuted, nextLook, renotifyDue, windowFrom } from './judge.ts';
import type { AlertRow, AlertState } from './queries.ts';

/** What one look at an alert did, for the engine's announcements and metrics. */
export interface AlertOutcome {
  /** When to look again without new events; null: only when events arrive. */
  nextDueAt: Date | null;
  /** The state entered, when this look made a transition. */
  transition?: AlertState;
  /** The event written (a transition's or a renotification's), to announce after the commit. */
  event?: { id: number; projectId: string };
}

/**
 * Counts the alert's window and writes what follows from it. A transition or a renotification is
 * one transaction: the compare-and-set on the alert's revision, its event through the same
 * statement as every event (ids, categories, rollups, outbox), and the history row. Whoever loses
 * the compare-and-set writes nothing, so each happens once whichever processes evaluate.
 */
export async function evaluateAlert(sql: Sql, organizationId: string, alert: AlertRow, now: Date, timeZone: string): Promise<AlertOutcome> {
  const from = windowFrom(alert, now);
  const { count, nextFuture } = await countWindow(sql, organizationId, alert, { from, now });
  const nth = count >= alert.threshold ? await nthNewest(sql, organizationId, alert, { from, now, n: alert.threshold }) : null;
  const state = desiredState(alert, count, now);
  const entering = state !== alert.state;
  const renotify = !entering && renotifyDue(alert, now);
  const notifiedAt = (entering && state === 'firing') || renotify ? now : alert.notifiedAt;
  const nextDueAt = nextLook(alert, { now, nthNewest: nth, nextFuture, state, notifiedAt });
  if (!entering && !renotify) {
    if (count !== alert.count || nextDueAt?.getTime() !== alert.nextDueAt?.getTime()) {
      await recordCount(sql, organizationId, { id: alert.id, revision: alert.revision, count, nextDueAt });
    }
    return { nextDueAt };
  }
  const muted = isMuted(alert, now);
  const written = await withTransaction(sql, async (tx) => {
    const moved = await advanceAlert(tx, organizationId, {
      id: alert.id,
      revision: alert.revision,
      state,
      stateSince: entering ? now : alert.stateSince,
      count,
      notifiedAt,
      nextDueAt,
    });
    if (!moved) return undefined;
    const eventId = muted ? null : await writeEvent(tx, organizationId, alert, state === 'firing' ? 'firing' : 'resolved', count, timeZone);
    if (entering) await insertTransition(tx, organizationId, { alertId: alert.id, revision: alert.revision + 1, state, at: now, count, eventId });
    return { eventId };
  });
  // Another process moved the alert first: its view is the one that counts.
  if (!written) return { nextDueAt: now };
  return {
    nextDueAt,
    ...(entering ? { transition: state } : {}),
    ...(written.eventId !== null ? { event: { id: written.eventId, projectId: alert.projectId } } : {}),
  };
}

async function writeEvent(
  tx: Db,
  organizationId: string,
  alert: AlertRow,
  kind: 'firing' | 'resolved',
  count: number,
  timeZone: string,
): Promise<number | null> {
  // `timeZone`: the chart time zone the day counts are kept in.
  const { inserted } = await writeEventsInTransaction(tx, organizationId, [alertEventDraft(alert, kind, count)], { timeZone });
  // Nothing inserted: the project was deleted meanwhile, or the organization used every event id.
  return inserted[0]?.id ?? null;
}

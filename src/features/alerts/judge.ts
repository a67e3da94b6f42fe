import type { AlertRow, AlertState } from './queries.ts';

// The condition's arithmetic, apart from the database: what an alert's window is, whether the
// condition holds, and when time alone (no new event) can change that.

/** The window's start: `windowSeconds` back, never before the alert was created, enabled or changed. */
export function windowFrom(alert: Pick<AlertRow, 'windowSeconds' | 'windowStart'>, now: Date): Date {
  return new Date(Math.max(now.getTime() - alert.windowSeconds * 1000, alert.windowStart.getTime()));
}

/** A `fewerThan` alert cannot fire before a whole window has passed since its window started. */
function wholeWindowAt(alert: Pick<AlertRow, 'windowSeconds' | 'windowStart'>): Date {
  return new Date(alert.windowStart.getTime() + alert.windowSeconds * 1000);
}

export function desiredState(alert: Pick<AlertRow, 'countMode' | 'threshold' | 'windowSeconds' | 'windowStart'>, count: number, now: Date): AlertState {
  if (alert.countMode === 'atLeast') return count >= alert.threshold ? 'firing' : 'ok';
  return now >= wholeWindowAt(alert) && count < alert.threshold ? 'firing' : 'ok';
}

/**
 * When the alert must be looked at again if no matching event arrives: the moment the n-th
 * newest event leaves the window (the count drops below the threshold), the end of a
 * `fewerThan` alert's first window, a future-dated event entering it, the next renotify.
 */
export function nextLook(
  alert: Pick<AlertRow, 'countMode' | 'windowSeconds' | 'windowStart' | 'renotifySeconds'>,
  facts: { now: Date; nthNewest: Date | null; nextFuture: Date | null; state: AlertState; notifiedAt: Date | null },
): Date | null {
  const times: number[] = [];
  if (facts.nthNewest) times.push(facts.nthNewest.getTime() + alert.windowSeconds * 1000 + 1);
  if (alert.countMode === 'fewerThan' && facts.now < wholeWindowAt(alert)) times.push(wholeWindowAt(alert).getTime());
  if (facts.nextFuture) times.push(facts.nextFuture.getTime());
  if (facts.state === 'firing' && alert.renotifySeconds !== null && facts.notifiedAt) {
    times.push(facts.notifiedAt.getTime() + alert.renotifySeconds * 1000);
  }
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/** Whether a firing alert is owed another firing event now. */
export function renotifyDue(alert: Pick<AlertRow, 'state' | 'renotifySeconds' | 'notifiedAt'>, now: Date): boolean {
  if (alert.state !== 'firing' || alert.renotifySeconds === null || !alert.notifiedAt) return false;
  return now.getTime() >= alert.notifiedAt.getTime() + alert.renotifySeconds * 1000;
}

export function isMuted(alert: Pick<AlertRow, 'mutedUntil'>, now: Date): boolean {
  return alert.mutedUntil !== null && alert.mutedUntil > now;
}

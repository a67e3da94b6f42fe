import type { Db } from '../../db/client.ts';
import { drawCounterIds, lockEventCounter, markCounterRollsUpTags, setEventCounter } from './counterQueries.ts';

// What other features ask of the organizations' id counters, in their own transactions.

/**
 * `count` new insight ids, consecutive: the last of them, or `exhausted` when the organization's
 * insight ids do not suffice (then none is taken).
 */
export async function drawInsightIds(tx: Db, organizationId: string, count: number): Promise<number | 'exhausted'> {
  return (await drawCounterIds(tx, organizationId, 'insight', count)) ?? 'exhausted';
}

/**
 * An import's event ids: the organization's last event id, its counter held until the import's
 * transaction ends, so the import hands out the ids after it itself and ingest waits. The import
 * then sets the counter once with setLastEventId.
 */
export function holdEventIds(tx: Db, organizationId: string): Promise<number> {
  return lockEventCounter(tx, organizationId);
}

/** Moves the held event counter past the ids the import handed out. */
export function setLastEventId(tx: Db, organizationId: string, lastId: number): Promise<void> {
  return setEventCounter(tx, organizationId, lastId);
}

/**
 * Registering a rolled-up tag key (charts/, decision 131): marks the organization's counter so
 * that ingest counts tag values from now on, and answers the last event id handed out before, the
 * counter row held until the transaction ends.
 */
export function startTagRollup(tx: Db, organizationId: string): Promise<number> {
  return markCounterRollsUpTags(tx, organizationId);
}

import type { Db } from '../../db/client.ts';
import { type EventDraft } from './validateEventInput.ts';
import { type BatchResult, insertEvents } from './queries.ts';

/**
 * Events written by the server itself inside a caller's transaction (the alert engine's firing and
 * resolved events): the same write as ingest's (ids, monthly usage, categories, rollups, outbox),
 * committed or rolled back with the caller's other rows. The caller announces them after commit
 * (announceCreated). Drafts whose project is gone, or past the organization's ids, are not written.
 */
export function writeEventsInTransaction(tx: Db, organizationId: string, drafts: EventDraft[], options: { timeZone: string }): Promise<BatchResult> {
  return insertEvents(tx, organizationId, drafts, { timeZone: options.timeZone, usage: 'count' });
}

import type { InsertedEvent, Refusal } from './queries.ts';
import type { EventDraft } from './validateEventInput.ts';

// What waits in the ingest batcher's queue (ingestBatcher.ts), and how a client's batches are
// taken from it and answered.

export type Draft = EventDraft & { organizationId: string };

/** The new row; `{ refused }` when the organization's cap or id space refused it; null for a project not the organization's. */
export type IngestOutcome = InsertedEvent | { refused: Refusal } | null;

/**
 * What a whole batch got (POST /api/events/batch): its rows, by draft index, and the drafts whose
 * project was gone by the time of the write; or the refusal of all of it.
 */
export type WholeOutcome = { inserted: InsertedEvent[]; missing: number[] } | { refused: Refusal };

export interface Pending {
  draft: Draft;
  resolve(result: IngestOutcome): void;
  reject(error: unknown): void;
}

/** A batch a client sent as one: written all of it or none, never mixed with single rows. */
export interface WholePending {
  organizationId: string;
  drafts: EventDraft[];
  resolve(result: WholeOutcome): void;
  reject(error: unknown): void;
}

export type Queued = Pending | WholePending;

export const organizationOf = (entry: Queued) => ('drafts' in entry ? entry.organizationId : entry.draft.organizationId);

/**
 * `first` and the clients' batches of its organization queued after it, in queue order, as many
 * as fit in `maxRows` together (`first` goes even when it alone is larger); `rest` is the queue
 * without them.
 */
export function takeWholes(queue: Queued[], first: WholePending, maxRows: number): { taken: WholePending[]; rest: Queued[] } {
  const taken: WholePending[] = [];
  let rows = 0;
  const rest = queue.filter((entry) => {
    const joins =
      entry === first || ('drafts' in entry && entry.organizationId === first.organizationId && taken.length > 0 && rows + entry.drafts.length <= maxRows);
    if (!joins) return true;
    taken.push(entry);
    rows += entry.drafts.length;
    return false;
  });
  return { taken, rest };
}

/**
 * Each batch's outcome from the rows of the one statement that wrote them all: the statement's
 * ords run through the batches in order, so each batch gets its own range back, renumbered from 0.
 */
export function outcomesByBatch(entries: WholePending[], inserted: InsertedEvent[]): WholeOutcome[] {
  let offset = 0;
  return entries.map((entry) => {
    const end = offset + entry.drafts.length;
    const own = inserted.filter((row) => row.ord >= offset && row.ord < end).map((row) => ({ ...row, ord: row.ord - offset }));
    const written = new Set(own.map((row) => row.ord));
    offset = end;
    return { inserted: own, missing: [...entry.drafts.keys()].filter((ord) => !written.has(ord)) };
  });
}

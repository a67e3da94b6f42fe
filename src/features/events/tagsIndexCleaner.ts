import type { Sql } from '../../db/client.ts';
import { cleanTagsPendingList } from './queries.ts';
import type { EventDraft } from './validateEventInput.ts';

/** Errors that mean the database cannot merge the tags index's pending list for us. */
const CANNOT_CLEAN = new Set(['42883', '42501', '0A000']);
/**
 * Characters of tags written between two merges of the tags index's pending list: a few
 * thousand typical events, well under the 4 MB that makes an insert merge it inline (that merge
 * is what an ingest batch's p99 would wait for).
 */
const CLEAN_PENDING_EVERY_CHARS = 150_000;

/**
 * Asks PostgreSQL now and then, on another pooled connection, to merge the pending list of the
 * tags index (`events_tags`, a GIN index), so that no ingest batch has to do it inline. One per
 * process, shared by every batcher, so that the tags of all of them count toward one merge. See
 * docs/decisions/032-search-pending-list.md (search entries themselves are written after commit
 * since decision 090).
 */
export class TagsIndexCleaner {
  private charsSinceClean = 0;
  private cleaning: Promise<void> | undefined;
  private off = false;

  constructor(private readonly sql: Sql) {}

  /** Best effort: a failed merge is left to the next insert that fills the list, as without this. */
  wrote(drafts: readonly EventDraft[]): void {
    for (const draft of drafts) this.charsSinceClean += draft.tags?.length ?? 0;
    if (this.off || this.cleaning || this.charsSinceClean < CLEAN_PENDING_EVERY_CHARS) return;
    this.charsSinceClean = 0;
    this.cleaning = cleanTagsPendingList(this.sql)
      .then(
        (pages) => {
          if (pages === null) this.off = true; // no tags index
        },
        (error: unknown) => {
          if (CANNOT_CLEAN.has((error as { code?: string }).code ?? '')) this.off = true;
        },
      )
      .finally(() => {
        this.cleaning = undefined;
      });
  }

  /** Resolves when no merge is running. */
  async idle(): Promise<void> {
    await this.cleaning;
  }
}

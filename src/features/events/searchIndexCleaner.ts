import type { Sql } from '../../db/client.ts';
import { cleanSearchPendingList } from './queries.ts';
import type { EventDraft } from './validateEventInput.ts';

/** Errors that mean the database cannot merge the search index's pending list for us. */
const CANNOT_CLEAN = new Set(['42883', '42501', '0A000']);
/**
 * Searchable characters (title, description, tags) written between two merges of the search
 * index's pending list: about 1000 typical events, well under the 4 MB that makes an insert
 * merge it inline (measured: p99 of ingest 60 ms without this, 24 ms with it).
 */
const CLEAN_PENDING_EVERY_CHARS = 150_000;

/**
 * Asks PostgreSQL now and then, on another pooled connection, to merge the search index's
 * pending list, so that no ingest batch has to do it inline (the p99 of ingest). One per
 * process, shared by every batcher, so that the characters of all of them count toward one
 * merge. See docs/decisions/032-search-pending-list.md.
 */
export class SearchIndexCleaner {
  private charsSinceClean = 0;
  private cleaning: Promise<void> | undefined;
  private off = false;

  constructor(private readonly sql: Sql) {}

  /** Best effort: a failed merge is left to the next insert that fills the list, as without this. */
  wrote(drafts: readonly EventDraft[]): void {
    for (const draft of drafts) this.charsSinceClean += draft.title.length + (draft.description?.length ?? 0) + (draft.tags?.length ?? 0);
    if (this.off || this.cleaning || this.charsSinceClean < CLEAN_PENDING_EVERY_CHARS) return;
    this.charsSinceClean = 0;
    this.cleaning = cleanSearchPendingList(this.sql)
      .then(
        (pages) => {
          if (pages === null) this.off = true; // no search index (pg_trgm missing)
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

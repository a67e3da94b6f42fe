import type { Sql } from '../../db/client.ts';
import { type InsertedEvent, type UsageMode, insertEvents } from './queries.ts';
import type { SearchIndexCleaner } from './searchIndexCleaner.ts';
import type { EventDraft } from './validateEventInput.ts';

type Draft = EventDraft & { organizationId: string };

interface Pending {
  draft: Draft;
  resolve(result: InsertedEvent | null): void;
  reject(error: unknown): void;
}

export interface BatcherOptions {
  /** Rows per statement. */
  maxBatch?: number;
  /** Statements in flight at once (each holds one pooled connection until it commits). */
  maxInFlight?: number;
  /** How the writes count against monthly caps (see insertEvents); `count` by default. */
  usage?: UsageMode;
  /** Told of every written batch, so that the search index's pending list is merged off the request path. */
  cleaner?: SearchIndexCleaner;
}

/** Errors worth one more try: a deadlock or serialization failure with another writer. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Group commit: concurrent creates are written by one multi-row statement, one transaction and
 * one fsync, instead of one each. Nothing is acknowledged before its statement commits. If a
 * batch fails, its rows are retried one by one, so one bad row fails alone. With `capped` usage,
 * an organization's rows in a batch are written only if all of them fit under its cap, so rows a
 * batch refused are retried one by one too: each then gets exactly the answer it would alone.
 */
export class IngestBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly usage: UsageMode;
  private readonly cleaner: SearchIndexCleaner | undefined;

  constructor(
    private readonly sql: Sql,
    options: BatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.usage = options.usage ?? 'count';
    this.cleaner = options.cleaner;
  }

  /**
   * Resolves after commit with the new row, or null when the project is not the organization's
   * (or, with `capped` usage, when the organization is at its cap).
   */
  insert(draft: Draft): Promise<InsertedEvent | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ draft, resolve, reject });
      this.schedule();
    });
  }

  /** Waits until every queued row is written. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.cleaner?.idle();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // One turn of the event loop lets requests that arrived together share the statement.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    let inserted: InsertedEvent[];
    try {
      inserted = await this.insertWithRetry(batch.map((p) => p.draft));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((pending) => this.write([pending])));
      return;
    }
    this.cleaner?.wrote(batch.map((p) => p.draft));
    const byOrd = new Map(inserted.map((row) => [row.ord, row]));
    const refused: Pending[] = [];
    batch.forEach((pending, ord) => {
      const row = byOrd.get(ord);
      if (row) pending.resolve(row);
      else if (this.usage === 'capped' && batch.length > 1) refused.push(pending);
      else pending.resolve(null);
    });
    await Promise.all(refused.map((pending) => this.write([pending])));
  }

  private async insertWithRetry(drafts: Draft[], attempt = 1): Promise<InsertedEvent[]> {
    try {
      return await insertEvents(this.sql, drafts, { usage: this.usage });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < 3 && code && RETRYABLE.has(code)) return this.insertWithRetry(drafts, attempt + 1);
      throw error;
    }
  }
}

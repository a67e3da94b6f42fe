import type { Sql } from '../../db/client.ts';
import { type InsertedEvent, insertEvents } from './queries.ts';
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
}

/** Errors worth one more try: a deadlock or serialization failure with another writer. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Group commit: concurrent creates are written by one multi-row statement, one transaction and
 * one fsync, instead of one each. Nothing is acknowledged before its statement commits. If a
 * batch fails, its rows are retried one by one, so one bad row fails alone.
 */
export class IngestBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly sql: Sql,
    options: BatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? Number(process.env.EXPERIMENT_MAX_BATCH ?? 500); // EXPERIMENT-REMOVE
    this.maxInFlight = options.maxInFlight ?? Number(process.env.EXPERIMENT_MAX_IN_FLIGHT ?? 2); // EXPERIMENT-REMOVE
  }

  /** Resolves after commit with the new row, or null when the project is not the organization's. */
  insert(draft: Draft): Promise<InsertedEvent | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ draft, resolve, reject });
      this.schedule();
    });
  }

  /** Waits until every queued row is written. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
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
    try {
      const inserted = await this.insertWithRetry(batch.map((p) => p.draft));
      const byOrd = new Map(inserted.map((row) => [row.ord, row]));
      batch.forEach((pending, ord) => pending.resolve(byOrd.get(ord) ?? null));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      await Promise.all(batch.map((pending) => this.write([pending])));
    }
  }

  private async insertWithRetry(drafts: Draft[], attempt = 1): Promise<InsertedEvent[]> {
    try {
      return await insertEvents(this.sql, drafts);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < 3 && code && RETRYABLE.has(code)) return this.insertWithRetry(drafts, attempt + 1);
      throw error;
    }
  }
}

import { isDatabaseUnavailable, isDatabaseUnreachable } from '../../lib/databaseErrors.ts';
import type { Sql } from '../../db/client.ts';
import { isIdWarning } from '../../lib/idSpace.ts';
import { type BatchResult, type InsertedEvent, type Refusal, type UsageMode, insertEvents } from './queries.ts';
import type { KnownCategories } from './knownCategories.ts';
import type { TagsIndexCleaner } from './tagsIndexCleaner.ts';
import type { EventDraft } from './validateEventInput.ts';

type Draft = EventDraft & { organizationId: string };

/** The new row; `{ refused }` when the organization's cap or id space refused it; null for a project not the organization's. */
export type IngestOutcome = InsertedEvent | { refused: Refusal } | null;

interface Pending {
  draft: Draft;
  resolve(result: IngestOutcome): void;
  reject(error: unknown): void;
}

interface BatcherOptions {
  /** The chart time zone (config.timeZone): the per-day counts are days in it. */
  timeZone: string;
  /** Rows per statement. */
  maxBatch?: number;
  /** Statements in flight at once (each holds one pooled connection until it commits). */
  maxInFlight?: number;
  /** How the writes count against monthly caps (see insertEvents); `count` by default. */
  usage?: UsageMode;
  /** Told of every written batch, so that the tags index's pending list is merged off the request path. */
  cleaner?: TagsIndexCleaner;
  /** Told when an organization's event ids pass 90% of their space. */
  warn?: (message: string, organizationId: string) => void;
  /** Categories known to exist, shared by the process's batchers (knownCategories.ts). */
  knownCategories?: KnownCategories;
}

function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

/** Errors worth one more try: a deadlock or serialization failure with another writer. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Group commit: concurrent creates of one organization are written by one multi-row statement,
 * one transaction and one fsync, instead of one each; a batch that holds several organizations
 * writes each one's rows with a statement of its own, at once (each runs on its organization's
 * shard of a distributed database, and one organization's failure is not another's). Nothing is acknowledged before its statement commits. If a
 * batch fails, its rows are retried one by one, so one bad row fails alone. An organization's rows
 * in a batch are written only if all of them fit under its cap (with `capped` usage) and in its id
 * space, so rows a batch refused are retried one by one too: each then gets exactly the answer it
 * would alone.
 */
export class IngestBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Organizations with a statement in flight: their next rows wait and go together (see flush). */
  private readonly writing = new Set<string>();
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly usage: UsageMode;
  private readonly cleaner: TagsIndexCleaner | undefined;
  private readonly warn: BatcherOptions['warn'];
  private readonly timeZone: string;
  private readonly knownCategories: KnownCategories | undefined;

  constructor(
    private readonly sql: Sql,
    options: BatcherOptions,
  ) {
    this.timeZone = options.timeZone;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.usage = options.usage ?? 'count';
    this.cleaner = options.cleaner;
    this.warn = options.warn;
    this.knownCategories = options.knownCategories;
  }

  /** Resolves after commit (see IngestOutcome). */
  insert(draft: Draft): Promise<IngestOutcome> {
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

  /**
   * Starts statements for the queued rows of organizations that have none in flight. An
   * organization's batches commit one after the other anyway (its id counter and usage rows are
   * locked until commit), so a second one started early would only hold a connection while it
   * waits; held back, its rows join one bigger batch, which costs less per row.
   */
  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch: Pending[] = [];
      const waiting: Pending[] = [];
      for (const pending of this.queue) {
        if (batch.length < this.maxBatch && !this.writing.has(pending.draft.organizationId)) batch.push(pending);
        else waiting.push(pending);
      }
      if (batch.length === 0) return;
      this.queue = waiting;
      const organizations = new Set(batch.map((pending) => pending.draft.organizationId));
      for (const organization of organizations) this.writing.add(organization);
      this.inFlight++;
      void this.write(batch).finally(() => {
        for (const organization of organizations) this.writing.delete(organization);
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const byOrganization = new Map<string, Pending[]>();
    for (const pending of batch) {
      const group = byOrganization.get(pending.draft.organizationId);
      if (group) group.push(pending);
      else byOrganization.set(pending.draft.organizationId, [pending]);
    }
    await Promise.all([...byOrganization.values()].map((group) => this.writeOrganization(group)));
  }

  /** Writes rows of one organization (see the class comment). */
  private async writeOrganization(batch: Pending[]): Promise<void> {
    let result: BatchResult;
    try {
      result = await this.insertWithRetry(batch[0]!.draft.organizationId, batch.map((p) => p.draft));
    } catch (error) {
      // The project was purged between this statement's snapshot and its foreign-key check: the
      // row has no project to belong to, which the client hears as the project's 404.
      if (batch.length === 1 && isForeignKeyViolation(error)) batch[0]!.resolve(null);
      // A lost database fails every row alike: retrying them one by one would only wait longer.
      else if (batch.length === 1 || isDatabaseUnavailable(error)) for (const pending of batch) pending.reject(error);
      else await Promise.all(batch.map((pending) => this.writeOrganization([pending])));
      // The rows that queued up meanwhile would wait out the same connect attempt again.
      if (isDatabaseUnreachable(error)) this.failQueue(error);
      return;
    }
    this.cleaner?.wrote(batch.map((p) => p.draft));
    this.warnOfIdSpace(batch, result.inserted);
    const byOrd = new Map(result.inserted.map((row) => [row.ord, row]));
    const refusals = new Map(result.refused.map((row) => [row.ord, row.reason]));
    const retry: Pending[] = [];
    batch.forEach((pending, ord) => {
      const row = byOrd.get(ord);
      const reason = refusals.get(ord);
      if (row) pending.resolve(row);
      else if (reason && batch.length > 1) retry.push(pending);
      else pending.resolve(reason ? { refused: reason } : null);
    });
    await Promise.all(retry.map((pending) => this.writeOrganization([pending])));
  }

  /** Fails every queued row (none of them was acknowledged): the client hears 503 at once. */
  private failQueue(error: unknown): void {
    const queued = this.queue;
    this.queue = [];
    for (const pending of queued) pending.reject(error);
  }

  private warnOfIdSpace(batch: Pending[], inserted: InsertedEvent[]): void {
    for (const row of inserted) {
      if (isIdWarning(row.id)) this.warn?.(`organization has used 90% of its event ids (id ${row.id})`, batch[row.ord]!.draft.organizationId);
    }
  }

  private async insertWithRetry(organizationId: string, drafts: Draft[], attempt = 1): Promise<BatchResult> {
    try {
      return await insertEvents(this.sql, organizationId, drafts, { usage: this.usage, timeZone: this.timeZone, knownCategories: this.knownCategories });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < 3 && code && RETRYABLE.has(code)) return this.insertWithRetry(organizationId, drafts, attempt + 1);
      throw error;
    }
  }
}

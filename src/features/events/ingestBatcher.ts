import { isDatabaseUnavailable, isDatabaseUnreachable } from '../../lib/databaseErrors.ts';
import type { Sql } from '../../db/client.ts';
import { isIdWarning } from '../../lib/idSpace.ts';
import { type BatchResult, type InsertedEvent, type UsageMode, insertEvents } from './queries.ts';
import type { KnownCategories } from './knownCategories.ts';
import type { TagsIndexCleaner } from './tagsIndexCleaner.ts';
import {
  type Draft,
  type IngestOutcome,
  type Pending,
  type Queued,
  type WholeOutcome,
  type WholePending,
  organizationOf,
  outcomesByBatch,
  takeWholes,
} from './ingestQueue.ts';
import type { EventDraft } from './validateEventInput.ts';

interface BatcherOptions {
  /** The chart time zone (config.timeZone): the per-day counts are days in it. */
  timeZone: string;
  /** Rows per statement. */
  maxBatch?: number;
  /** Rows per statement of clients' batches taken together (a larger batch goes alone). */
  maxWholeRows?: number;
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
  private queue: Queued[] = [];
  private inFlight = 0;
  /** Statements in flight per organization (absent: none): its next rows wait and go together (see mayStart). */
  private readonly writing = new Map<string, number>();
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxWholeRows: number;
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
    this.maxWholeRows = options.maxWholeRows ?? 1000;
    this.maxInFlight = options.maxInFlight ?? 3;
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

  /**
   * Writes a client's batch of one organization in its organization's turn (see flush), never
   * merged with single rows: all of it under the monthly cap or none (`capped`, extensions.md
   * "Batch ingestion"). Batches that wait for the same turn share one statement (writeWholes).
   * Resolves after commit.
   */
  insertWhole(organizationId: string, drafts: EventDraft[]): Promise<WholeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ organizationId, drafts, resolve, reject });
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
   * Starts statements for the queued rows of organizations that may write (mayStart). An
   * organization's statements commit one after the other anyway (its id counter and usage rows
   * are locked until commit), so single rows started early would only hold a connection while
   * they wait; held back, they join one bigger batch, which costs less per row. A client's
   * batch is already big: one may go ahead and wait in the database (decision 234).
   */
  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      // The oldest entry whose organization may write now decides what goes: the clients'
      // batches of its organization, or the waiting single rows of every organization free to write.
      const first = this.queue.find((entry) => this.mayStart(entry));
      if (!first) return;
      if ('drafts' in first) {
        const { taken: wholes, rest } = takeWholes(this.queue, first, this.maxWholeRows);
        this.queue = rest;
        this.start([first.organizationId], () => this.writeWholes(wholes));
        continue;
      }
      const batch: Pending[] = [];
      const waiting: Queued[] = [];
      for (const entry of this.queue) {
        if (!('drafts' in entry) && batch.length < this.maxBatch && this.mayStart(entry)) batch.push(entry);
        else waiting.push(entry);
      }
      this.queue = waiting;
      this.start(new Set(batch.map((pending) => pending.draft.organizationId)), () => this.write(batch));
    }
  }

  /**
   * Single rows wait while their organization has a statement in flight. Clients' batches may
   * have a second one on its way: it waits for the first's commit in the database, with its
   * document already sent, so the organization's statements follow each other without a gap.
   */
  private mayStart(entry: Queued): boolean {
    const inFlight = this.writing.get(organizationOf(entry)) ?? 0;
    return inFlight === 0 || ('drafts' in entry && inFlight < 2);
  }

  /** Runs one statement's write, its organizations marked as writing until it ends. */
  private start(organizations: Iterable<string>, write: () => Promise<void>): void {
    const held = [...organizations];
    for (const organization of held) this.writing.set(organization, (this.writing.get(organization) ?? 0) + 1);
    this.inFlight++;
    void write().finally(() => {
      for (const organization of held) {
        const left = this.writing.get(organization)! - 1;
        if (left > 0) this.writing.set(organization, left);
        else this.writing.delete(organization);
      }
      this.inFlight--;
      if (this.queue.length > 0) this.schedule();
    });
  }

  /**
   * Clients' batches of one organization (insertWhole), written by one statement: twenty
   * connections sending batches of 100 would otherwise commit one small statement after another,
   * each paying the call, the counter rows and the commit (decision 234). Each batch is whole
   * or nothing under the cap and in the id space: when the statement refuses them together, or
   * meets a purged project, each batch is written again alone, in queue order, and gets the
   * answer it would have had alone.
   */
  private async writeWholes(entries: WholePending[]): Promise<void> {
    const { organizationId } = entries[0]!;
    const drafts = entries.flatMap((entry) => entry.drafts.map((draft) => ({ ...draft, organizationId })));
    let result: BatchResult;
    try {
      result = await this.insertWithRetry(organizationId, drafts, 'capped');
    } catch (error) {
      if (isDatabaseUnreachable(error)) this.failQueue(error);
      if (entries.length > 1 && isForeignKeyViolation(error)) return this.writeEachAlone(entries);
      // A project purged between the statement's snapshot and its foreign-key check: nothing
      // was written, and some item's project is gone.
      for (const entry of entries) {
        if (isForeignKeyViolation(error)) entry.resolve({ inserted: [], missing: [...entry.drafts.keys()] });
        else entry.reject(error);
      }
      return;
    }
    const refusal = result.refused[0];
    if (refusal && entries.length > 1) return this.writeEachAlone(entries);
    if (refusal) return entries[0]!.resolve({ refused: refusal.reason });
    this.cleaner?.wrote(drafts);
    this.warnOfIdSpace(organizationId, result.inserted);
    outcomesByBatch(entries, result.inserted).forEach((outcome, i) => entries[i]!.resolve(outcome));
  }

  /** Batches that could not go together, each by a statement of its own, one after the other. */
  private async writeEachAlone(entries: WholePending[]): Promise<void> {
    for (const entry of entries) await this.writeWholes([entry]);
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
      result = await this.insertWithRetry(
        batch[0]!.draft.organizationId,
        batch.map((p) => p.draft),
      );
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
    this.warnOfIdSpace(batch[0]!.draft.organizationId, result.inserted);
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

  private warnOfIdSpace(organizationId: string, inserted: InsertedEvent[]): void {
    for (const row of inserted) {
      if (isIdWarning(row.id)) this.warn?.(`organization has used 90% of its event ids (id ${row.id})`, organizationId);
    }
  }

  private async insertWithRetry(organizationId: string, drafts: Draft[], usage = this.usage, attempt = 1): Promise<BatchResult> {
    try {
      return await insertEvents(this.sql, organizationId, drafts, { usage, timeZone: this.timeZone, knownCategories: this.knownCategories });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < 3 && code && RETRYABLE.has(code)) return this.insertWithRetry(organizationId, drafts, usage, attempt + 1);
      throw error;
    }
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import { type Sql, withTransaction } from '../../db/client.ts';
import { advanceProgress, hasSearchIndex, indexEvents, lockProgress, organizationsBehind } from './searchQueries.ts';

/** Events indexed per transaction: long enough to be cheap, short enough to hold no lock for long. */
const INDEX_BATCH = 2000;
/** Organizations looked at per pass. */
const ORGANIZATIONS_PER_PASS = 100;
/**
 * How often an idle indexer looks at every organization for events it was not told of (another
 * process's, or announcements lost). The look visits every shard of a distributed database, so
 * it is rare; the organizations whose writes this process hears of are indexed at once.
 */
const SWEEP_MS = 10_000;
/** Writes arrive in bursts: one pass per burst, not one per event. */
const NUDGE_DELAY_MS = 200;
/**
 * A batch that met a delete of one of its events (the entry's foreign key no longer finds the
 * event) or a deadlock with another writer of the table: nothing was written, and the next pass
 * simply takes the batch again without that event.
 */
const RACED = new Set(['23503', '40P01']);

/**
 * Writes the search entries of committed events (migrations/090_search_table.sql), organization by
 * organization, from each one's watermark. Every server process runs one; an organization is
 * indexed by one process at a time (its progress row, locked with SKIP LOCKED), and search scans
 * whatever is above the watermark, so a late or stopped indexer makes search slower, never
 * incomplete. Started by the server only. See docs/decisions/090-search-table.md.
 */
export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  /** Known after the first pass: without pg_trgm the entries would serve no index. */
  private indexPresent: boolean | undefined;
  /** Organizations written to since the last pass, as the bus told. */
  private readonly nudged = new Set<string>();
  private nextSweepAt = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts indexing; with a bus, the organizations it announces writes of are indexed at once. */
  start(bus?: Bus): void {
    this.stopped = false;
    this.unsubscribe = bus?.subscribe((announcement) => {
      if (announcement.type !== 'event.created') return;
      const firstSincePass = this.nudged.size === 0;
      this.nudged.add(announcement.organizationId);
      // Only the first write since the last pass sets the timer: were every write to set it
      // again, writes that never pause for NUDGE_DELAY_MS would put the pass off for as long as
      // they last, and search would scan ever more unindexed events.
      if (firstSincePass && !this.running) this.schedule(NUDGE_DELAY_MS);
    });
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Indexes until no organization it can take is behind (or it is stopped); how many events. */
  runUntilIdle(): Promise<number> {
    return this.index(() => organizationsBehind(this.sql, ORGANIZATIONS_PER_PASS));
  }

  /** The organizations it was told of, or every one when the sweep is due. */
  private runPass(): Promise<number> {
    if (Date.now() >= this.nextSweepAt) {
      this.nextSweepAt = Date.now() + SWEEP_MS;
      this.nudged.clear();
      return this.runUntilIdle();
    }
    const told = [...this.nudged];
    this.nudged.clear();
    let first = true;
    return this.index(() => {
      const organizations = first ? told : [];
      first = false;
      return Promise.resolve(organizations);
    });
  }

  private async index(organizations: () => Promise<string[]>): Promise<number> {
    this.indexPresent ??= await hasSearchIndex(this.sql);
    if (!this.indexPresent) {
      // Search scans events there, as it always did without pg_trgm.
      this.log.info('no trigram index (pg_trgm is missing): search scans the events, and nothing is indexed');
      this.stopped = true;
      return 0;
    }
    let indexed = 0;
    for (;;) {
      let progressed = 0;
      for (const organizationId of await organizations()) {
        if (this.stopped && this.timer !== undefined) return indexed;
        progressed += await this.indexBatch(organizationId);
      }
      indexed += progressed;
      if (progressed === 0) return indexed;
    }
  }

  /** One batch of one organization; 0 when another process holds it, nothing was left, or it raced a delete. */
  private async indexBatch(organizationId: string): Promise<number> {
    try {
      return await withTransaction(this.sql, async (tx) => {
        const progress = await lockProgress(tx, organizationId);
        if (!progress) return 0;
        const taken = await indexEvents(tx, organizationId, { ...progress, batch: INDEX_BATCH });
        // A short batch reached the last id: the ids up to it that it did not see were deleted.
        const through = taken.count < INDEX_BATCH ? progress.lastId : taken.highest!;
        if (through !== progress.through) await advanceProgress(tx, organizationId, through);
        return taken.count;
      });
    } catch (error) {
      if (RACED.has((error as { code?: string }).code ?? '')) return 0;
      throw error;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runPass()
        .catch((err: unknown) => this.log.warn({ err }, 'search indexing failed; it will try again'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.nudged.size > 0 ? NUDGE_DELAY_MS : Math.max(0, this.nextSweepAt - Date.now()));
        });
    }, delayMs);
    this.timer.unref();
  }
}

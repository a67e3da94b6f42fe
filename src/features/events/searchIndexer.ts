import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import { type Sql, withTransaction } from '../../db/client.ts';
import { PeriodicTask } from '../../lib/periodicTask.ts';
import {
  type Block,
  type BlockSource,
  advanceProgress,
  blocksAbove,
  deleteBlocks,
  hasSearchIndex,
  lockProgress,
  organizationsBehind,
  staleBlocks,
  writeBlocks,
} from './searchQueries.ts';
import { BLOCK_EVENTS, blockWords } from './searchWords.ts';

/**
 * Events indexed per transaction: long enough to be cheap, short enough to hold no lock for long;
 * whole blocks, so that a project's events make no short block at each batch's end.
 */
const INDEX_BATCH = 32 * BLOCK_EVENTS;
/** Stale blocks written again per transaction (each up to BLOCK_EVENTS events). */
const STALE_BATCH = 50;
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
 * A batch that met the delete of a project (a block's foreign key no longer finds it) or a
 * deadlock: nothing was written, and the next pass simply takes the batch again.
 */
const RACED = new Set(['23503', '40P01']);

/**
 * Writes the search blocks of committed events (migrations/126_search_blocks.sql), organization by
 * organization, from each one's watermark. Every server process runs one; an organization is
 * indexed by one process at a time (its progress row, locked with SKIP LOCKED), and search scans
 * whatever is above the watermark, so a late or stopped indexer makes search slower, never
 * incomplete. It also writes again the blocks that deletes marked stale. Started by the server only.
 * See docs/decisions/090-search-table.md and 167-search-blocks.md.
 */
export class SearchIndexer {
  private readonly task: PeriodicTask;
  /** Without pg_trgm there is nothing to index: the schedule ends after the first pass. */
  private idle = false;
  /** Known after the first pass: without pg_trgm the entries would serve no index. */
  private indexPresent: boolean | undefined;
  /** Organizations written to since the last pass, as the bus told. */
  private readonly nudged = new Set<string>();
  private nextSweepAt = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
  ) {
    this.task = new PeriodicTask({
      run: () => this.runPass(),
      // Written-to organizations soon; otherwise the next sweep of every organization.
      intervalMs: () => (this.nudged.size > 0 ? NUDGE_DELAY_MS : Math.max(0, this.nextSweepAt - Date.now())),
      onError: (err) => this.log.warn({ err }, 'search indexing failed; it will try again'),
    });
  }

  /** Starts indexing; with a bus, the organizations it announces writes of are indexed at once. */
  start(bus?: Bus): void {
    this.unsubscribe = bus?.subscribe((announcement) => {
      // An import announces its projects once, not its events.
      if (announcement.type !== 'event.created' && announcement.type !== 'import.completed') return;
      const firstSincePass = this.nudged.size === 0;
      this.nudged.add(announcement.organizationId);
      // A pass within NUDGE_DELAY_MS of the first write since the last pass; a wake never puts
      // off a pass already due, so writes that never pause cannot delay indexing for as long as
      // they last (and search scan ever more unindexed events).
      if (firstSincePass && !this.idle) this.task.wake(NUDGE_DELAY_MS);
    });
    this.task.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.task.stop();
  }

  /** Indexes until no organization it can take is behind (or it is stopped); how many events. */
  async runUntilIdle(): Promise<number> {
    let indexed = 0;
    for (;;) {
      const progressed = await this.index(() => organizationsBehind(this.sql, ORGANIZATIONS_PER_PASS));
      indexed += progressed;
      if (progressed === 0 || this.task.stopping) return indexed;
    }
  }

  /**
   * The organizations it was told of, or every one behind when the sweep is due: each until its
   * backlog is indexed. Under a steady stream of writes an organization is always behind again, so
   * a pass looks for organizations once (a look that visits every shard of a distributed
   * database), not until none is behind (decision 233).
   */
  private runPass(): Promise<number> {
    if (Date.now() >= this.nextSweepAt) {
      this.nextSweepAt = Date.now() + SWEEP_MS;
      this.nudged.clear();
      return this.index(() => organizationsBehind(this.sql, ORGANIZATIONS_PER_PASS));
    }
    const told = [...this.nudged];
    this.nudged.clear();
    return this.index(() => Promise.resolve(told));
  }

  /** Indexes each organization, then again those whose batch was full, until none was. */
  private async index(organizations: () => Promise<string[]>): Promise<number> {
    this.indexPresent ??= await hasSearchIndex(this.sql);
    if (!this.indexPresent) {
      // Search scans events there, as it always did without pg_trgm.
      this.log.info('no trigram index (pg_trgm is missing): search scans the events, and nothing is indexed');
      this.idle = true;
      void this.task.stop();
      return 0;
    }
    let indexed = 0;
    let behind = await organizations();
    while (behind.length > 0) {
      const full: string[] = [];
      for (const organizationId of behind) {
        if (this.task.stopping) return indexed;
        const count = await this.indexBatch(organizationId);
        indexed += count;
        if (count >= INDEX_BATCH) full.push(organizationId);
      }
      behind = full;
    }
    return indexed;
  }

  /** One batch of one organization; 0 when another process holds it, nothing was left, or it raced a project's delete. */
  private async indexBatch(organizationId: string): Promise<number> {
    try {
      return await indexNextBatch(this.sql, organizationId);
    } catch (error) {
      if (RACED.has((error as { code?: string }).code ?? '')) return 0;
      throw error;
    }
  }
}

/**
 * One transaction of indexing for one organization: its stale blocks written again from the
 * events that remain, then the blocks of the next INDEX_BATCH events above its watermark, and the
 * watermark moved past them. Returns how many events and stale blocks it wrote (0: nothing to do,
 * or another process holds the organization).
 */
export function indexNextBatch(sql: Sql, organizationId: string): Promise<number> {
  return withTransaction(sql, async (tx) => {
    const progress = await lockProgress(tx, organizationId);
    if (!progress) return 0;
    const stale = await staleBlocks(tx, organizationId, STALE_BATCH);
    const emptied = stale.filter((block) => block.eventIds.length === 0).map((block) => block.firstEventId);
    // A block keeps its key and range when written again, so ranges stay disjoint.
    const rewritten = stale
      .filter((block) => block.eventIds.length > 0)
      .map((block) => ({ ...blockOf(block), firstEventId: block.firstEventId, lastEventId: block.lastEventId }));
    const taken = (await blocksAbove(tx, organizationId, { ...progress, batch: INDEX_BATCH, perBlock: BLOCK_EVENTS })).map(blockOf);
    await deleteBlocks(tx, organizationId, emptied);
    await writeBlocks(tx, organizationId, [...rewritten, ...taken]);
    const count = taken.reduce((sum, block) => sum + block.eventIds.length, 0);
    // A short batch reached the last id: the ids up to it that it did not see were deleted.
    const through = count < INDEX_BATCH ? progress.lastId : Math.max(...taken.map((block) => block.lastEventId));
    if (through !== progress.through) await advanceProgress(tx, organizationId, through);
    return count + stale.length;
  });
}

/** A block to write from its events as the database grouped them. */
function blockOf(source: BlockSource): Block {
  return {
    projectId: source.projectId,
    firstEventId: source.eventIds[0]!,
    lastEventId: source.eventIds.at(-1)!,
    eventIds: source.eventIds,
    words: blockWords(source.documents),
    newestMicros: source.newestMicros,
  };
}

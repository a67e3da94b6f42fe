import type { FastifyBaseLogger } from 'fastify';
import { type Sql, type TransactionSql, withTransaction } from '../../db/client.ts';
import { countTagValueRange } from '../events/rollupRebuild.ts';
import { lockTagKey, setTagKeyBackfilled } from './tagRollupQueries.ts';

/**
 * Counts the project's events with ids in (after, upTo] into the key's rollup and records the
 * range done; the caller holds the key's row (lockTagKey).
 */
export async function backfillTagRange(
  tx: TransactionSql,
  q: { organizationId: string; projectId: string; tagKey: string; after: number; upTo: number; timeZone: string },
): Promise<void> {
  await countTagValueRange(tx, q);
  await setTagKeyBackfilled(tx, q);
}

/** Event ids counted per transaction: a step holds the key's row (and delays its deletes) this long. */
const IDS_PER_STEP = 50_000;

/**
 * Counts a newly rolled-up tag key's older events (decision 131), off the request path: one short
 * transaction per range of event ids, so ingest never waits on it and a crash loses one range at
 * most (the next chart request on the key starts it again where it stopped). Until it is done the
 * chart keeps reading the events, so its answers stay exact.
 */
export class TagRollupBackfiller {
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
    private readonly timeZone: string,
    private readonly idsPerStep = IDS_PER_STEP,
  ) {}

  /** Backfills the key to the end; a second call while one runs joins it. Never rejects. */
  backfill(organizationId: string, projectId: string, tagKey: string): Promise<void> {
    const key = JSON.stringify([organizationId, projectId, tagKey]);
    let run = this.running.get(key);
    if (!run) {
      run = this.run({ organizationId, projectId, tagKey })
        .catch((err: unknown) => this.log.error({ err, organizationId, projectId }, 'tag rollup backfill failed; the next chart request resumes it'))
        .finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }

  /** Stops at the next range boundary and waits for the backfills in progress to get there. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running.values());
  }

  private async run(q: { organizationId: string; projectId: string; tagKey: string }): Promise<void> {
    let done = false;
    while (!done && !this.stopped) {
      done = await withTransaction(this.sql, async (tx) => {
        const state = await lockTagKey(tx, q);
        if (!state || state.backfilledUpTo >= state.countedAfterId) return true;
        const upTo = Math.min(state.backfilledUpTo + this.idsPerStep, state.countedAfterId);
        await backfillTagRange(tx, { ...q, after: state.backfilledUpTo, upTo, timeZone: this.timeZone });
        return upTo >= state.countedAfterId;
      });
    }
  }
}

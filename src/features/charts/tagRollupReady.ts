import type { Ctx } from '../../context.ts';
import { type TransactionSql, withTransaction } from '../../db/client.ts';
import { startTagRollup } from '../events/idCounters.ts';
import { countTagKeys, findTagKey, insertTagKey, lockTagRollupRegistration } from './tagRollupQueries.ts';

/** PostgreSQL's error when registerTagKey waited longer than its lock timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Registers the key, ingest counting from the organization's next event id on. The counter row is
 * locked first, and marked `rolls_up_tags` (events/idCounters.ts): every ingest transaction holds
 * it from taking its ids to its commit, so those that took ids up to `counted_after_id` have
 * committed without seeing the key, and those after it read the mark with their ids and join the
 * keys, this one included.
 * The backfill counts the first, ingest the second: each event exactly once. The advisory lock
 * waits for the organization's deletes in flight and holds new ones until the key is committed,
 * so every delete that could remove an event the backfill counts sees the key (holdTagRollupKeys).
 */
export async function registerTagKey(tx: TransactionSql, q: { organizationId: string; projectId: string; tagKey: string }): Promise<void> {
  await lockTagRollupRegistration(tx, q.organizationId);
  const countedAfterId = await startTagRollup(tx, q.organizationId);
  await insertTagKey(tx, { ...q, countedAfterId });
}

/** A longer tag key is broken down by reading the events: the rollup's key is held in a btree entry. */
export const MAX_ROLLED_UP_KEY_LENGTH = 200;
/** Each rolled-up key adds a row write per batch, day, category and value on ingest: a project gets this many. */
export const MAX_ROLLED_UP_KEYS = 10;

/**
 * Whether the per-day counts of `tagKey` can answer the project's breakdown (decision 131). A key
 * charted for the first time is registered and its backfill started; until the backfill is done
 * (or when the project already rolls up MAX_ROLLED_UP_KEYS keys) the caller reads the events.
 * Only a caller that may change the organization registers a key (`mayRegister`): a read-only key
 * could otherwise fill the project's slots for good with keys nobody wanted (decision 200); it
 * reads the events instead, and the rollups others registered.
 */
export async function tagRollupReady(ctx: Ctx, projectId: string, tagKey: string, { mayRegister }: { mayRegister: boolean }): Promise<boolean> {
  if (tagKey.length > MAX_ROLLED_UP_KEY_LENGTH) return false;
  const q = { organizationId: ctx.organizationId, projectId, tagKey };
  let state = await findTagKey(ctx.services.sql, q);
  if (!state) {
    if (!mayRegister) return false;
    if ((await countTagKeys(ctx.services.sql, q)) >= MAX_ROLLED_UP_KEYS) return false;
    try {
      await withTransaction(ctx.services.sql, (tx) => registerTagKey(tx, q));
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
      throw error;
    }
    state = await findTagKey(ctx.services.sql, q);
    if (!state) return false;
  }
  if (state.backfilledUpTo >= state.countedAfterId) return true;
  void ctx.services.tagRollups.backfill(ctx.organizationId, projectId, tagKey);
  return false;
}

import type { Ctx } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { countTagKeys, findTagKey, registerTagKey } from './tagRollupQueries.ts';

/** PostgreSQL's error when registerTagKey waited longer than its lock timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

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

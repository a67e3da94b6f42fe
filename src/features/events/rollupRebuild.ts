import type { TransactionSql } from '../../db/client.ts';
import { clearDayCounts, clearTagDayCounts, countDayRange, countTagRange, lockDayCounts } from './rollupQueries.ts';

// What charts/ asks of the events' per-day rollups, in its own transactions: the chart time
// zone's rebuild (syncChartTimeZone.ts) and a rolled-up tag key's backfill (tagRollupBackfiller.ts).

/** The rebuild's start: writers of the day counts wait until the transaction ends, and the counts are emptied. */
export async function emptyDayCounts(tx: TransactionSql): Promise<void> {
  await lockDayCounts(tx);
  await clearDayCounts(tx);
}

/** Counts the organization's events with ids in (after, upTo] into days of `timeZone`; how many it counted. */
export function recountDayRange(tx: TransactionSql, q: { organizationId: string; after: number; upTo: number; timeZone: string }): Promise<number> {
  return countDayRange(tx, q);
}

/** Empties the counts by tag value, their writers kept out until the transaction ends. */
export function emptyTagDayCounts(tx: TransactionSql): Promise<void> {
  return clearTagDayCounts(tx);
}

/** Counts the project's events with ids in (after, upTo] into the key's counts by tag value. */
export function countTagValueRange(
  tx: TransactionSql,
  q: { organizationId: string; projectId: string; tagKey: string; after: number; upTo: number; timeZone: string },
): Promise<void> {
  return countTagRange(tx, q);
}

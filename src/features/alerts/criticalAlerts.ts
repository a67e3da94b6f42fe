import type { Db } from '../../db/client.ts';
import { selectCriticalAlerts } from './queries.ts';

/** The critical ones among these alerts, as `JSON.stringify([organizationId, alertId])` keys. */
export async function criticalAlerts(sql: Db, keys: readonly { organizationId: string; alertId: string }[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await selectCriticalAlerts(sql, keys);
  return new Set(rows.map((row) => JSON.stringify([row.organizationId, row.id])));
}

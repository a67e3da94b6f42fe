import type { Sql } from '../../db/client.ts';
import { deleteBrowserCountsBefore } from './queries.ts';

/**
 * Browser keys count events per minute and per address (keyAuthenticator.ts); a window is useless
 * once it has ended. Deletes the windows that started before `before`: one indexed range delete
 * over every organization, run by the hourly audit pruner (audit/auditPruner.ts).
 */
export function pruneBrowserEventCounts(sql: Sql, before: Date): Promise<void> {
  return deleteBrowserCountsBefore(sql, before);
}

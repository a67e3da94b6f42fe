import type { Db } from '../../db/client.ts';
import { selectReleased } from './queries.ts';

/** What a member's summaries covered in [from, to): how many, and the newest titles (the digest lists them). */
export async function summarisedNotifications(
  sql: Db,
  q: { organizationId: string; userId: string; from: Date; to: Date; limit: number },
): Promise<{ total: number; titles: string[] }> {
  const rows = await selectReleased(sql, q);
  return { total: rows[0]?.total ?? 0, titles: rows.map((row) => row.title) };
}

import type { Db } from '../../db/client.ts';
import { MAX_ID } from '../../lib/idSpace.ts';

// The organizations' id counters (`id_counters`, one row per organization and kind): ingest draws
// event ids in `ingest_events`; these are the other ways a counter moves.

/**
 * `count` new ids of `kind` for the organization, the counter created at need; the last of them,
 * or undefined when they would pass MAX_ID (then the counter stays as it was).
 */
export async function drawCounterIds(sql: Db, organizationId: string, kind: 'insight', count: number): Promise<number | undefined> {
  const [counter] = await sql<{ lastId: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${organizationId}, ${kind}, ${count})
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
    WHERE c.last_id + excluded.last_id <= ${MAX_ID}
    RETURNING last_id::int AS "lastId"`;
  return counter?.lastId;
}

/** The organization's last event id, its counter row locked (created at need) until the transaction ends. */
export async function lockEventCounter(sql: Db, organizationId: string): Promise<number> {
  const [row] = await sql<{ last_id: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${organizationId}, 'event', 0)
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id
    RETURNING last_id::int AS last_id`;
  return row!.last_id;
}

/** Moves the organization's event counter to `lastId`; the caller holds the row (lockEventCounter). */
export async function setEventCounter(sql: Db, organizationId: string, lastId: number): Promise<void> {
  await sql`UPDATE id_counters SET last_id = ${lastId} WHERE organization_id = ${organizationId} AND kind = 'event'`;
}

/**
 * Marks the organization's event counter `rolls_up_tags` (creating it at need), its row locked
 * until the transaction ends; the last event id handed out.
 */
export async function markCounterRollsUpTags(sql: Db, organizationId: string): Promise<number> {
  const [counter] = await sql<{ lastId: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id, rolls_up_tags) VALUES (${organizationId}, 'event', 0, true)
    ON CONFLICT (organization_id, kind) DO UPDATE SET rolls_up_tags = true
    RETURNING c.last_id::int AS "lastId"`;
  return counter!.lastId;
}

import type { TransactionSql } from '../../db/client.ts';

// Held groups (grouping bursts, decision 178): a group is a pending delivery, not yet attempted
// nor leased, due at its window's end, with its events' ids.

interface OpenGroup {
  id: string;
  eventIds: number[];
}

/**
 * The destination's open group, locked for this fan-out: one whose window has not ended and that
 * no worker has leased. The worker's claim and this lock take the row one after the other; a
 * group claimed first is no longer open here (locked_until is set), so its events start a new one.
 */
export async function lockOpenGroup(tx: TransactionSql, organizationId: string, destinationId: string): Promise<OpenGroup | undefined> {
  const [row] = await tx<OpenGroup[]>`
    SELECT l.id, l.event_ids AS "eventIds" FROM deliveries l
    WHERE l.organization_id = ${organizationId} AND l.destination_id = ${destinationId}
      AND l.status = 'pending' AND l.attempts = 0 AND l.event_ids IS NOT NULL
      AND l.next_attempt_at > now() AND l.locked_until IS NULL
    ORDER BY l.created_at DESC LIMIT 1
    FOR UPDATE`;
  return row;
}

/** The group's events joined, its body rendered again for all of them. */
export async function extendGroup(tx: TransactionSql, q: { organizationId: string; id: string; eventIds: number[]; body: string }): Promise<void> {
  await tx`
    UPDATE deliveries SET event_ids = ${q.eventIds}::int[], body = ${q.body}
    WHERE organization_id = ${q.organizationId} AND id = ${q.id}`;
}

/** The titles (icon first) of the newest `limit` of these events, newest first. */
export function selectGroupTitles(
  tx: TransactionSql,
  q: { organizationId: string; eventIds: number[]; limit: number },
): Promise<{ id: number; title: string; icon: string | null }[]> {
  return tx<{ id: number; title: string; icon: string | null }[]>`
    SELECT e.id, e.title, e.icon FROM events e
    WHERE e.organization_id = ${q.organizationId} AND e.id = ANY(${q.eventIds}::int[])
    ORDER BY e.id DESC LIMIT ${q.limit}`;
}

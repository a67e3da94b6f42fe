import type { Sql } from '../../db/client.ts';

/**
 * Saves a browser's subscription for one of the caller's projects, or refreshes it (new keys, new
 * owner) when that browser subscribed before. Undefined when the project is not the organization's.
 */
export async function upsertSubscription(
  sql: Sql,
  organizationId: string,
  row: { id: string; projectId: string; userId: string; endpoint: string; p256dh: string; auth: string },
): Promise<string | undefined> {
  const [saved] = await sql<{ id: string }[]>`
    INSERT INTO push_subscriptions AS s (organization_id, id, project_id, user_id, endpoint, p256dh, auth)
    SELECT p.organization_id, ${row.id}, p.id, u.id, ${row.endpoint}, ${row.p256dh}, ${row.auth}
    FROM projects p JOIN users u ON u.organization_id = p.organization_id
    WHERE p.organization_id = ${organizationId} AND p.id = ${row.projectId} AND p.deleted_at IS NULL AND u.id = ${row.userId}
    ON CONFLICT (organization_id, project_id, endpoint) DO UPDATE
      SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth
    RETURNING id`;
  return saved?.id;
}

/** Unsubscribes a browser from every project of the organization. */
export async function deleteSubscriptionsByEndpoint(sql: Sql, organizationId: string, endpoint: string): Promise<number> {
  const rows = await sql`
    DELETE FROM push_subscriptions s
    WHERE s.organization_id = ${organizationId} AND s.endpoint = ${endpoint}
    RETURNING s.id`;
  return rows.length;
}

/** Deletes one subscription; its queued pushes go by cascade. */
export async function deleteSubscription(sql: Sql, organizationId: string, id: string): Promise<void> {
  await sql`DELETE FROM push_subscriptions WHERE organization_id = ${organizationId} AND id = ${id}`;
}

import type { Db, Sql } from '../../db/client.ts';

export interface AuditRow {
  id: string;
  atMicros: string;
  actorKind: 'user' | 'key' | 'operator' | null;
  actorId: string | null;
  actorLabel: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
}

export async function insertAuditEntry(
  sql: Db,
  row: {
    organizationId: string;
    id: string;
    actorKind: string | null;
    actorId: string | null;
    actorLabel: string | null;
    action: string;
    targetType: string | null;
    targetId: string | null;
    ip: string | null;
  },
): Promise<void> {
  await sql`
    INSERT INTO audit_entries (organization_id, id, actor_kind, actor_id, actor_label, action, target_type, target_id, ip)
    VALUES (${row.organizationId}, ${row.id}, ${row.actorKind}, ${row.actorId}, ${row.actorLabel}, ${row.action}, ${row.targetType}, ${row.targetId}, ${row.ip})`;
}

/** The email of a member, or the name (else the prefix) of a key: the actor's label at the time. */
export async function findActorLabel(sql: Db, organizationId: string, kind: 'user' | 'key', id: string): Promise<string | null> {
  const [row] =
    kind === 'user'
      ? await sql<{ label: string }[]>`SELECT email AS label FROM users WHERE organization_id = ${organizationId} AND id = ${id}`
      : await sql<{ label: string }[]>`SELECT coalesce(name, prefix) AS label FROM api_keys WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row?.label ?? null;
}

/** One keyset page, newest first; `after` is the last entry of the previous page. */
export function listAuditEntries(
  sql: Db,
  query: { organizationId: string; limit: number; after?: { micros: bigint; id: string }; action?: string; actorId?: string },
): Promise<AuditRow[]> {
  const { organizationId, after } = query;
  return sql<AuditRow[]>`
    SELECT id, (extract(epoch FROM at) * 1000000)::bigint::text AS "atMicros", actor_kind AS "actorKind", actor_id AS "actorId",
      actor_label AS "actorLabel", action, target_type AS "targetType", target_id AS "targetId", ip
    FROM audit_entries
    WHERE organization_id = ${organizationId}
      ${after ? sql`AND (at, id) < (timestamptz 'epoch' + ${after.micros.toString()}::bigint * interval '1 microsecond', ${after.id})` : sql``}
      ${query.action ? sql`AND action = ${query.action}` : sql``}
      ${query.actorId ? sql`AND actor_id = ${query.actorId}` : sql``}
    ORDER BY at DESC, id DESC
    LIMIT ${query.limit}`;
}

/**
 * Entries older than `before`, of every organization: one indexed range delete (audit_entries_age),
 * run by the pruner once an hour.
 */
export async function deleteExpiredAuditEntries(sql: Sql, before: Date): Promise<number> {
  const deleted = await sql`DELETE FROM audit_entries WHERE at < ${before}`;
  return deleted.count;
}

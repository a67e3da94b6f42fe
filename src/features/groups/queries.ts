import type { Db } from '../../db/client.ts';
import type { GroupCursor, GroupSort } from './groupOrder.ts';

export type GroupProperties = Record<string, string | number | boolean>;

export interface GroupRow {
  groupId: string;
  projectId: string;
  properties: GroupProperties;
  users: number;
  /** Microseconds since the epoch as decimal text. */
  firstSeenMicros: string;
  /** The newest event of any of its users; null while they have none. */
  lastSeenMicros: string | null;
}

interface GroupKey {
  organizationId: string;
  projectId: string;
  groupId: string;
}

const micros = (sql: Db, expression: ReturnType<Db>) => sql`(extract(epoch FROM ${expression}) * 1000000)::bigint::text`;

/**
 * The group's users count and newest event, read from its memberships and the members' app_users
 * rows (decision 190): ingest keeps each user's last event time already, so groups cost it nothing.
 * Every table is named with the organization, so Citus routes the statement to one shard.
 */
const groupStats = (sql: Db, organizationId: string) => sql`
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS users, max(u.last_event_at) AS last_seen
    FROM app_group_members m
    LEFT JOIN app_users u ON u.organization_id = ${organizationId} AND u.project_id = m.project_id AND u.user_id = m.user_id
    WHERE m.organization_id = ${organizationId} AND m.project_id = g.project_id AND m.group_id = g.group_id
  ) s ON true`;

const groupColumns = (sql: Db) => sql`
  g.group_id AS "groupId", g.project_id AS "projectId", g.properties, s.users,
  ${micros(sql, sql`g.first_seen_at`)} AS "firstSeenMicros",
  ${micros(sql, sql`s.last_seen`)} AS "lastSeenMicros"`;

/** Step one of a group call: the group exists and is locked for this transaction, with its properties. */
export async function lockGroupProperties(tx: Db, key: GroupKey): Promise<GroupProperties> {
  await tx`
    INSERT INTO app_groups (organization_id, project_id, group_id)
    VALUES (${key.organizationId}, ${key.projectId}, ${key.groupId})
    ON CONFLICT DO NOTHING`;
  const [row] = await tx<{ properties: GroupProperties }[]>`
    SELECT properties FROM app_groups
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND group_id = ${key.groupId}
    FOR UPDATE`;
  return row!.properties;
}

export async function writeGroupProperties(tx: Db, key: GroupKey, propertiesJson: string): Promise<void> {
  await tx`
    UPDATE app_groups SET properties = ${propertiesJson}::text::json
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND group_id = ${key.groupId}`;
}

/** The user (who must exist in app_users) joins the group; joining again changes nothing. */
export async function insertMembership(tx: Db, key: GroupKey & { userId: string }): Promise<void> {
  await tx`
    INSERT INTO app_group_members (organization_id, project_id, group_id, user_id)
    VALUES (${key.organizationId}, ${key.projectId}, ${key.groupId}, ${key.userId})
    ON CONFLICT DO NOTHING`;
}

export async function findGroup(sql: Db, key: GroupKey): Promise<GroupRow | undefined> {
  const [row] = await sql<GroupRow[]>`
    SELECT ${groupColumns(sql)} FROM app_groups g ${groupStats(sql, key.organizationId)}
    WHERE g.organization_id = ${key.organizationId} AND g.project_id = ${key.projectId} AND g.group_id = ${key.groupId}`;
  return row;
}

/** The group's users' ids, in id order, at most `limit` (null: all of them). */
export async function selectMemberIds(sql: Db, key: GroupKey, limit: number | null): Promise<string[]> {
  const rows = await sql<{ userId: string }[]>`
    SELECT m.user_id AS "userId" FROM app_group_members m
    WHERE m.organization_id = ${key.organizationId} AND m.project_id = ${key.projectId} AND m.group_id = ${key.groupId}
    ORDER BY m.user_id ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
  return rows.map((row) => row.userId);
}

/** Removes the group; its memberships go with it (ON DELETE CASCADE). Answers whether it existed. */
export async function deleteGroupRow(sql: Db, key: GroupKey): Promise<boolean> {
  const deleted = await sql`
    DELETE FROM app_groups
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND group_id = ${key.groupId}`;
  return deleted.count > 0;
}

/** The groups a user belongs to, by id, at most `limit`. */
export function selectUserGroups(sql: Db, key: { organizationId: string; projectId: string; userId: string; limit: number }): Promise<GroupRow[]> {
  return sql<GroupRow[]>`
    SELECT ${groupColumns(sql)} FROM app_groups g
    JOIN app_group_members my ON my.organization_id = ${key.organizationId} AND my.project_id = g.project_id
      AND my.group_id = g.group_id AND my.user_id = ${key.userId}
    ${groupStats(sql, key.organizationId)}
    WHERE g.organization_id = ${key.organizationId} AND g.project_id = ${key.projectId}
    ORDER BY g.group_id LIMIT ${key.limit}`;
}

interface GroupListQuery {
  organizationId: string;
  projectId: string;
  sort: GroupSort;
  /** ILIKE pattern, already escaped. */
  pattern?: string;
  after?: GroupCursor;
  limit: number;
}

/** A microseconds key back to a time; null (no events) sorts below every time. */
const timeAt = (sql: Db, value: string | null) =>
  value === null ? sql`'-infinity'::timestamptz` : sql`(timestamptz 'epoch' + ${value}::int8 * interval '1 microsecond')`;

/** Each order's key over the listed rows (`x`), and how the previous page's last key compares. */
function orderOf(sql: Db, sort: GroupSort, after: GroupCursor | undefined) {
  switch (sort) {
    case 'users':
      return { key: sql`x.users`, direction: 'desc' as const, after: after && sql`${after.key ?? '0'}::int4` };
    case 'name':
      return { key: sql`x.name_key`, direction: 'asc' as const, after: after && sql`${after.key ?? ''}::text` };
    default:
      return { key: sql`coalesce(x.last_seen, '-infinity'::timestamptz)`, direction: 'desc' as const, after: after && timeAt(sql, after.key) };
  }
}

/**
 * A page of the project's groups in one of the list's orders. Each group's users count and last
 * seen are computed here (decision 190), so the page reads every group of the project that the
 * search leaves, with its memberships: the cost grows with the project's memberships, not its events.
 */
export function selectGroups(sql: Db, q: GroupListQuery): Promise<Array<GroupRow & { nameKey: string }>> {
  const order = orderOf(sql, q.sort, q.after);
  const compare = order.direction === 'desc' ? sql`<` : sql`>`;
  const direction = order.direction === 'desc' ? sql`DESC` : sql`ASC`;
  return sql<Array<GroupRow & { nameKey: string }>>`
    SELECT x."groupId", x."projectId", x.properties, x.users, x."firstSeenMicros", x."lastSeenMicros", x.name_key AS "nameKey"
    FROM (
      SELECT ${groupColumns(sql)}, s.last_seen, lower(coalesce(g.properties ->> 'name', g.group_id)) AS name_key
      FROM app_groups g ${groupStats(sql, q.organizationId)}
      WHERE g.organization_id = ${q.organizationId} AND g.project_id = ${q.projectId}
      ${
        q.pattern === undefined
          ? sql``
          : sql`AND (g.group_id ILIKE ${q.pattern}
        OR EXISTS (SELECT 1 FROM json_each_text(g.properties) p WHERE p.value ILIKE ${q.pattern}))`
      }
    ) x
    ${q.after ? sql`WHERE (${order.key}, x."groupId") ${compare} (${order.after!}, ${q.after.groupId})` : sql``}
    ORDER BY ${order.key} ${direction}, x."groupId" ${direction} LIMIT ${q.limit}`;
}

export async function groupExists(sql: Db, key: GroupKey): Promise<boolean> {
  const rows = await sql`
    SELECT 1 FROM app_groups
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND group_id = ${key.groupId}`;
  return rows.length > 0;
}

/** A project's groups for the export document: properties, first seen and every member's id. */
export function selectExportGroups(
  sql: Db,
  organizationId: string,
  projectId: string,
): Promise<Array<{ id: string; properties: GroupProperties; firstSeenMicros: string; users: string[] }>> {
  return sql<Array<{ id: string; properties: GroupProperties; firstSeenMicros: string; users: string[] }>>`
    SELECT g.group_id AS id, g.properties, ${micros(sql, sql`g.first_seen_at`)} AS "firstSeenMicros",
      coalesce((SELECT array_agg(m.user_id ORDER BY m.user_id) FROM app_group_members m
        WHERE m.organization_id = ${organizationId} AND m.project_id = ${projectId} AND m.group_id = g.group_id), '{}') AS users
    FROM app_groups g
    WHERE g.organization_id = ${organizationId} AND g.project_id = ${projectId}
    ORDER BY g.group_id`;
}

/** An import's groups of a new project, and their memberships (whose users exist already). */
export async function insertImportedGroups(
  tx: Db,
  organizationId: string,
  projectId: string,
  groups: Array<{ id: string; propertiesJson: string; firstSeenMicros: string | null; users: string[] }>,
): Promise<void> {
  await tx`
    INSERT INTO app_groups (organization_id, project_id, group_id, properties, first_seen_at)
    SELECT ${organizationId}, ${projectId}, g.id, g.properties::json,
      coalesce(timestamptz 'epoch' + g.micros::int8 * interval '1 microsecond', now())
    FROM unnest(${groups.map((g) => g.id)}::text[], ${groups.map((g) => g.propertiesJson)}::text[], ${groups.map((g) => g.firstSeenMicros)}::text[])
      AS g(id, properties, micros)`;
  const members = groups.flatMap((g) => g.users.map((user) => [g.id, user] as const));
  await tx`
    INSERT INTO app_group_members (organization_id, project_id, group_id, user_id)
    SELECT ${organizationId}, ${projectId}, m.group_id, m.user_id
    FROM unnest(${members.map((m) => m[0])}::text[], ${members.map((m) => m[1])}::text[]) AS m(group_id, user_id)`;
}

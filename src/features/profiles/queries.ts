import type { Db } from '../../db/client.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import type { UserCursor, UserSort } from './userOrder.ts';

export interface AppUserRow {
  userId: string;
  properties: Record<string, string | number | boolean | null>;
  eventCount: number;
  /** Microseconds since the epoch as decimal text; null when the user has never been seen. */
  firstSeenMicros: string | null;
  lastSeenMicros: string | null;
  /** The newest stored event's time, as microseconds text; null without events. */
  lastActiveMicros: string | null;
}

const micros = (sql: Db, expression: ReturnType<Db>) => sql`(extract(epoch FROM ${expression}) * 1000000)::bigint::text`;

const userColumns = (sql: Db) => sql`
  u.user_id AS "userId", u.properties, u.event_count AS "eventCount",
  ${micros(sql, sql`least(u.first_event_at, u.first_identify_at)`)} AS "firstSeenMicros",
  ${micros(sql, sql`greatest(u.last_event_at, u.last_identify_at)`)} AS "lastSeenMicros",
  ${micros(sql, sql`u.last_event_at`)} AS "lastActiveMicros"`;

interface UserKey {
  organizationId: string;
  projectId: string;
  userId: string;
}

/**
 * Identify, step one: the user's row exists and is locked for this transaction, with its
 * properties, so the merge in JavaScript (and its limits, measured as JSON.stringify writes
 * them) cannot lose a concurrent identify's keys.
 */
export async function lockUserProperties(tx: Db, key: UserKey): Promise<AppUserRow['properties']> {
  await tx`
    INSERT INTO app_users (organization_id, project_id, user_id)
    VALUES (${key.organizationId}, ${key.projectId}, ${key.userId})
    ON CONFLICT DO NOTHING`;
  const [row] = await tx<{ properties: AppUserRow['properties'] }[]>`
    SELECT properties FROM app_users
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND user_id = ${key.userId}
    FOR UPDATE`;
  return row!.properties;
}

/** Identify, step two: the merged properties, and the identify call counted as seen now. */
export async function writeIdentify(tx: Db, key: UserKey, propertiesJson: string): Promise<void> {
  await tx`
    UPDATE app_users SET properties = ${propertiesJson}::text::json,
      first_identify_at = least(first_identify_at, now()), last_identify_at = greatest(last_identify_at, now())
    WHERE organization_id = ${key.organizationId} AND project_id = ${key.projectId} AND user_id = ${key.userId}`;
}

export async function findUser(sql: Db, key: UserKey): Promise<AppUserRow | undefined> {
  const [row] = await sql<AppUserRow[]>`
    SELECT ${userColumns(sql)} FROM app_users u
    WHERE u.organization_id = ${key.organizationId} AND u.project_id = ${key.projectId} AND u.user_id = ${key.userId}`;
  return row;
}

interface UserListQuery {
  organizationId: string;
  projectId: string;
  sort: UserSort;
  /** ILIKE pattern, already escaped. */
  pattern?: string;
  /** Only these users (a group's, as the groups feature lists them). */
  userIds?: string[];
  /** The last user of the previous page (its key read in `sort`'s order). */
  after?: UserCursor;
  limit: number;
}

/** A microseconds key back to a time; null (never seen) sorts below every time. */
const timeAt = (sql: Db, micros: string | null) =>
  micros === null ? sql`'-infinity'::timestamptz` : sql`(timestamptz 'epoch' + ${micros}::int8 * interval '1 microsecond')`;

/** When the user was first seen: their first event or identify, whichever came first. */
const firstSeenOrder = (sql: Db) => sql`(coalesce(least(u.first_event_at, u.first_identify_at), '-infinity'::timestamptz))`;

/**
 * Each order's key, and the previous page's last key in its type. Only last seen has an index
 * (app_users_recent): the others read the project's users and keep the top of the page
 * (decision 161), since an index on them would cost every event that updates its user.
 */
function orderOf(sql: Db, sort: UserSort, after: UserCursor | undefined) {
  switch (sort) {
    case 'firstSeen':
      return { key: firstSeenOrder(sql), after: after && timeAt(sql, after.key) };
    case 'events':
      return { key: sql`u.event_count`, after: after && sql`${after.key ?? '0'}::int4` };
    case 'lastActive':
      return { key: sql`(coalesce(u.last_event_at, '-infinity'::timestamptz))`, after: after && timeAt(sql, after.key) };
    default:
      return { key: sql`u.seen_order`, after: after && timeAt(sql, after.key) };
  }
}

/**
 * A page of users in one of the list's orders (last seen, first seen, most events, last active;
 * newest or most first, then by id); users never seen come last in the time orders.
 */
export function selectUsers(sql: Db, q: UserListQuery): Promise<Array<AppUserRow & { eventCountKey: string }>> {
  const order = orderOf(sql, q.sort, q.after);
  return sql<Array<AppUserRow & { eventCountKey: string }>>`
    SELECT ${userColumns(sql)}, u.event_count::text AS "eventCountKey" FROM app_users u
    WHERE u.organization_id = ${q.organizationId} AND u.project_id = ${q.projectId}
    ${q.after ? sql`AND (${order.key}, u.user_id) < (${order.after!}, ${q.after.userId})` : sql``}
    ${q.userIds === undefined ? sql`` : sql`AND u.user_id = ANY(${q.userIds}::text[])`}
    ${
      q.pattern === undefined
        ? sql``
        : sql`AND (u.user_id ILIKE ${q.pattern}
      OR EXISTS (SELECT 1 FROM json_each_text(u.properties) p WHERE p.value ILIKE ${q.pattern}))`
    }
    ORDER BY ${order.key} DESC, u.user_id DESC LIMIT ${q.limit}`;
}

/**
 * A user's events per day from `since` (a calendar day of the connection's time zone, as the
 * charts count days) to now, along the user's journey index (events_journey); days without
 * events are absent. One statement, routed to the organization's shard.
 */
export function countUserDays(sql: Db, key: UserKey & { since: string }): Promise<Array<{ day: string; count: number }>> {
  return sql<Array<{ day: string; count: number }>>`
    SELECT e.created_at::date::text AS day, count(*)::int AS count
    FROM events e
    WHERE e.organization_id = ${key.organizationId} AND e.project_id = ${key.projectId} AND e.user_id = ${key.userId}
      AND e.created_at >= ${key.since}::date::timestamptz
    GROUP BY e.created_at::date
    ORDER BY 1`;
}

/**
 * A user made as identify makes one (seen now, no properties) when the project has none of that
 * id; an existing user is left as it is. Answers whether it was made.
 */
export async function insertUserIfNew(sql: Db, key: UserKey): Promise<boolean> {
  const made = await sql`
    INSERT INTO app_users (organization_id, project_id, user_id, first_identify_at, last_identify_at)
    VALUES (${key.organizationId}, ${key.projectId}, ${key.userId}, now(), now())
    ON CONFLICT DO NOTHING`;
  return made.count > 0;
}

/** insertUserIfNew for many ids of one project, in one statement (imports). */
export async function insertUsersIfNew(sql: Db, key: { organizationId: string; projectId: string; userIds: string[] }): Promise<void> {
  if (key.userIds.length === 0) return;
  await sql`
    INSERT INTO app_users (organization_id, project_id, user_id, first_identify_at, last_identify_at)
    SELECT ${key.organizationId}, ${key.projectId}, u.id, now(), now()
    FROM unnest(${key.userIds}::text[]) AS u(id)
    ORDER BY u.id
    ON CONFLICT DO NOTHING`;
}

/**
 * The application users of a project that was just imported, from its events, in one statement.
 * A user_id longer than MAX_USER_ID makes no user, as on the ingest path.
 */
export async function insertImportedUsers(sql: Db, organizationId: string, projectId: string): Promise<void> {
  await sql`
    INSERT INTO app_users (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
    SELECT e.organization_id, e.project_id, e.user_id, count(*), min(e.created_at), max(e.created_at)
    FROM events e
    WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
      AND e.user_id IS NOT NULL AND char_length(e.user_id) <= ${MAX_USER_ID}
    GROUP BY 1, 2, 3`;
}

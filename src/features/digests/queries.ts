import type { Db, Sql } from '../../db/client.ts';
import type { DigestFrequency, DigestSettings } from './schedule.ts';

// ---- A member's settings --------------------------------------------------------------------------

export async function findDigestSettings(sql: Db, organizationId: string, userId: string): Promise<DigestSettings | undefined> {
  const [row] = await sql<DigestSettings[]>`
    SELECT frequency, hour, time_zone AS "timeZone" FROM digest_settings
    WHERE organization_id = ${organizationId} AND user_id = ${userId}`;
  return row;
}

/** The settings and the next moment a digest is owed (null when off), replacing what was saved. */
export async function saveDigestSettings(sql: Db, row: DigestSettings & { organizationId: string; userId: string; nextDueAt: Date | null }): Promise<void> {
  await sql`
    INSERT INTO digest_settings (organization_id, user_id, frequency, hour, time_zone, next_due_at, updated_at)
    VALUES (${row.organizationId}, ${row.userId}, ${row.frequency}, ${row.hour}, ${row.timeZone}, ${row.nextDueAt}, ${new Date()})
    ON CONFLICT (organization_id, user_id) DO UPDATE SET
      frequency = excluded.frequency, hour = excluded.hour, time_zone = excluded.time_zone,
      next_due_at = excluded.next_due_at, updated_at = excluded.updated_at`;
}

// ---- The schedule ---------------------------------------------------------------------------------

export interface DueDigest extends DigestSettings {
  organizationId: string;
  userId: string;
  dueAt: Date;
  /** next_due_at exactly as stored, in microseconds since the epoch (a Date keeps only milliseconds), for the compare-and-set. */
  dueMicros: string;
}

/**
 * Digests owed by now, of every organization: one indexed look (the partial index on
 * next_due_at) per scheduler pass, once a minute; the claim below is per member.
 */
export function findDueDigests(sql: Sql, limit: number): Promise<DueDigest[]> {
  return sql<DueDigest[]>`
    SELECT organization_id AS "organizationId", user_id AS "userId", next_due_at AS "dueAt", (extract(epoch FROM next_due_at) * 1000000)::bigint::text AS "dueMicros",
           frequency, hour, time_zone AS "timeZone"
    FROM digest_settings
    WHERE next_due_at IS NOT NULL AND next_due_at <= ${new Date()}
    ORDER BY next_due_at LIMIT ${limit}`;
}

/**
 * Compare-and-set: moves the member's next digest from `dueAt` to `nextDueAt` only if it is still
 * `dueAt`. Of several processes that found the same due digest, exactly one moves it (the others'
 * UPDATE waits on the row lock, then finds it changed); that one enqueues the mail in the same
 * transaction.
 */
export async function claimDueDigest(
  sql: Db,
  due: { organizationId: string; userId: string; dueMicros: string; nextDueAt: Date | null; frequency: DigestFrequency },
): Promise<boolean> {
  // The stored time is rebuilt from its microseconds, with no column in the expression: a
  // distributed engine refuses a stable function of a column (extract) in an UPDATE.
  const updated = await sql`
    UPDATE digest_settings SET next_due_at = ${due.nextDueAt}
    WHERE organization_id = ${due.organizationId} AND user_id = ${due.userId}
      AND next_due_at = 'epoch'::timestamptz + ${due.dueMicros}::bigint * interval '1 microsecond' AND frequency = ${due.frequency}`;
  return updated.count === 1;
}

// ---- What a digest says -------------------------------------------------------------------------

export async function findMemberEmail(sql: Db, organizationId: string, userId: string): Promise<string | undefined> {
  const [row] = await sql<{ email: string }[]>`SELECT email FROM users WHERE organization_id = ${organizationId} AND id = ${userId}`;
  return row?.email;
}

export function listLiveProjects(sql: Db, organizationId: string): Promise<{ id: string; name: string }[]> {
  return sql<{ id: string; name: string }[]>`
    SELECT id, name FROM projects WHERE organization_id = ${organizationId} AND deleted_at IS NULL ORDER BY lower(name), id`;
}

interface CategoryCount {
  projectId: string;
  category: string;
  current: number;
  previous: number;
  notify: number;
}

/** Per project and category: events in [from, to), in the period before it, and notify events in [from, to). */
export function countCategories(
  sql: Db,
  q: { organizationId: string; projectIds: string[]; previousFrom: Date; from: Date; to: Date },
): Promise<CategoryCount[]> {
  return sql<CategoryCount[]>`
    SELECT e.project_id AS "projectId", e.category,
           (count(*) FILTER (WHERE e.created_at >= ${q.from}))::int AS current,
           (count(*) FILTER (WHERE e.created_at < ${q.from}))::int AS previous,
           (count(*) FILTER (WHERE e.created_at >= ${q.from} AND e.notify))::int AS notify
    FROM events e
    WHERE e.organization_id = ${q.organizationId} AND e.project_id = ANY(${q.projectIds}::text[])
      AND e.created_at >= ${q.previousFrom} AND e.created_at < ${q.to}
    GROUP BY e.project_id, e.category
    ORDER BY e.project_id, e.category`;
}

/** The latest `limit` notify events' titles of each project in [from, to), newest first. */
export function latestNotifyTitles(
  sql: Db,
  q: { organizationId: string; projectIds: string[]; from: Date; to: Date; limit: number },
): Promise<{ projectId: string; title: string; createdAt: Date }[]> {
  return sql<{ projectId: string; title: string; createdAt: Date }[]>`
    SELECT p.id AS "projectId", t.title, t.created_at AS "createdAt"
    FROM unnest(${q.projectIds}::text[]) AS p(id)
    CROSS JOIN LATERAL (
      SELECT e.title, e.created_at FROM events e
      WHERE e.organization_id = ${q.organizationId} AND e.project_id = p.id AND e.notify
        AND e.created_at >= ${q.from} AND e.created_at < ${q.to}
      ORDER BY e.created_at DESC, e.id DESC LIMIT ${q.limit}
    ) t
    ORDER BY p.id, t.created_at DESC`;
}

export function listInsightValues(sql: Db, organizationId: string): Promise<{ projectId: string; title: string; value: string; icon: string | null }[]> {
  return sql<{ projectId: string; title: string; value: string; icon: string | null }[]>`
    SELECT project_id AS "projectId", title, value, icon FROM insights
    WHERE organization_id = ${organizationId} ORDER BY project_id, lower(title)`;
}

/** The alert transitions of the projects in [from, to), oldest first (alerts' history, decision 100). */
export function alertTransitionsInPeriod(
  sql: Db,
  q: { organizationId: string; projectIds: string[]; from: Date; to: Date },
): Promise<Array<{ projectId: string; alertId: string; alertName: string; state: 'firing' | 'ok'; at: Date; count: number }>> {
  return sql`
    SELECT a.project_id AS "projectId", a.id AS "alertId", a.name AS "alertName", t.state, t.at, t.count
    FROM alert_transitions t
    JOIN alerts a ON a.organization_id = t.organization_id AND a.id = t.alert_id
    WHERE t.organization_id = ${q.organizationId} AND a.project_id = ANY(${q.projectIds}) AND t.at >= ${q.from} AND t.at < ${q.to}
    ORDER BY t.at, t.alert_id, t.seq`;
}

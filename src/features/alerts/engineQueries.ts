import type { Db } from '../../db/client.ts';
import { searchDocument, tagsContain } from '../../db/eventExpressions.ts';
import { tagAlternatives, tagFilterText } from '../events/tagFilter.ts';
import { likePattern } from '../events/listEvents.ts';
import { type AlertRow, type AlertState, type StoredFilter, alertColumns } from './queries.ts';

// The evaluation engine's SQL (alertEngine.ts, evaluateOrganization.ts). Every statement names
// one organization, except dueOrganizations, the engine's look for work.

/**
 * Organizations with enabled alerts that are due (a window slides past a threshold, a deadline,
 * a change) or have events the engine has not looked at, and that nobody holds. Only
 * organizations with alerts have a row, so an installation without alerts reads nothing.
 */
export async function dueOrganizations(sql: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ organizationId: string }[]>`
    SELECT s.organization_id AS "organizationId" FROM alert_schedules s
    LEFT JOIN id_counters c ON c.organization_id = s.organization_id AND c.kind = 'event'
    WHERE s.active AND (s.due_at <= ${now} OR coalesce(c.last_id, 0) > s.seen_event_id)
      AND (s.leased_until IS NULL OR s.leased_until <= ${now})
    ORDER BY s.due_at NULLS LAST LIMIT ${limit}`;
  return rows.map((row) => row.organizationId);
}

/**
 * Takes the organization for this process until `until`, unless another holds it; the event ids
 * it has looked at and the organization's last committed one. While held its due time is the
 * lease's end: a process that dies mid-evaluation leaves the organization due when its lease runs out.
 */
export async function claimOrganization(
  sql: Db,
  organizationId: string,
  lease: { now: Date; until: Date; token: string },
): Promise<{ seenEventId: number; lastEventId: number } | undefined> {
  // Two statements, each on one organization's rows: routed to one shard on a distributed engine.
  const [claimed] = await sql<{ seenEventId: number }[]>`
    UPDATE alert_schedules s SET leased_until = ${lease.until}, lease_token = ${lease.token}, due_at = ${lease.until}
    WHERE s.organization_id = ${organizationId} AND (s.leased_until IS NULL OR s.leased_until <= ${lease.now})
    RETURNING s.seen_event_id AS "seenEventId"`;
  if (!claimed) return undefined;
  // Read after the claim: every event up to it is committed (its counter moves in the writing transaction).
  const [counter] = await sql<{ lastId: number }[]>`
    SELECT c.last_id AS "lastId" FROM id_counters c WHERE c.organization_id = ${organizationId} AND c.kind = 'event'`;
  return { seenEventId: claimed.seenEventId, lastEventId: counter?.lastId ?? 0 };
}

/**
 * Gives the organization back: what was looked at, and when it is next due. A change made while
 * it was held (scheduleNow moved due_at off the lease's end) keeps the earlier time and keeps the
 * organization active.
 */
export async function releaseOrganization(
  sql: Db,
  organizationId: string,
  release: { token: string; leaseEnd: Date; seenEventId: number; dueAt: Date | null; active: boolean },
): Promise<void> {
  await sql`
    UPDATE alert_schedules s SET
      seen_event_id = ${release.seenEventId},
      due_at = CASE WHEN s.due_at = ${release.leaseEnd} THEN ${release.dueAt}::timestamptz ELSE least(s.due_at, ${release.dueAt}::timestamptz) END,
      active = ${release.active} OR s.due_at <> ${release.leaseEnd},
      leased_until = NULL, lease_token = NULL
    WHERE s.organization_id = ${organizationId} AND s.lease_token = ${release.token}`;
}

/** The organization's enabled alerts on live projects. */
export function enabledAlerts(sql: Db, organizationId: string): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    SELECT ${alertColumns(sql)} FROM alerts a
    JOIN projects p ON p.organization_id = a.organization_id AND p.id = a.project_id AND p.deleted_at IS NULL
    WHERE a.organization_id = ${organizationId} AND a.enabled`;
}

/**
 * The projects and categories of events written since the engine last looked (alerts' own
 * events aside), and the oldest time among them: which alerts new events may have moved.
 */
export function changedSince(
  sql: Db,
  organizationId: string,
  range: { after: number; through: number },
): Promise<Array<{ projectId: string; category: string; oldest: Date }>> {
  return sql<Array<{ projectId: string; category: string; oldest: Date }>>`
    SELECT e.project_id AS "projectId", e.category, min(e.created_at) AS oldest FROM events e
    WHERE e.organization_id = ${organizationId} AND e.id > ${range.after} AND e.id <= ${range.through} AND e.alert_id IS NULL
    GROUP BY 1, 2`;
}

/** The events an alert counts: its project and filter, never an alert's own events. */
function matching(sql: Db, organizationId: string, projectId: string, filter: StoredFilter) {
  // Spelled as the feed spells it, through tagsContain, so the tags index (migrations/050) serves it.
  const tags = Object.entries(filter.tags ?? {}).map(([key, value]) => tagAlternatives(key, tagFilterText(value) ?? ''));
  return sql`
    e.organization_id = ${organizationId} AND e.project_id = ${projectId} AND e.alert_id IS NULL
    ${filter.category !== undefined ? sql`AND e.category = ${filter.category}` : sql``}
    ${filter.user_id !== undefined ? sql`AND e.user_id = ${filter.user_id}` : sql``}
    ${filter.search !== undefined ? sql`AND ${searchDocument(sql)} ILIKE ${likePattern(filter.search)}` : sql``}
    ${tagsContain(sql, tags)}`;
}

interface WindowCount {
  count: number;
  /** The earliest matching event dated after `now`: it enters the window then. */
  nextFuture: Date | null;
}

/** Matching events with `from < createdAt <= now`: a range of the project's feed indexes. */
export async function countWindow(
  sql: Db,
  organizationId: string,
  alert: Pick<AlertRow, 'projectId' | 'filter'>,
  range: { from: Date; now: Date },
): Promise<WindowCount> {
  // One range of the feed index from the window's start on; the few events dated after `now`
  // tell when the next one enters the window.
  const [row] = await sql<WindowCount[]>`
    SELECT count(*) FILTER (WHERE e.created_at <= ${range.now})::int AS count,
           min(e.created_at) FILTER (WHERE e.created_at > ${range.now}) AS "nextFuture"
    FROM events e
    WHERE ${matching(sql, organizationId, alert.projectId, alert.filter)} AND e.created_at > ${range.from}`;
  return row ?? { count: 0, nextFuture: null };
}

/** The time of the `n`-th newest matching event in the window: the window drops below n when it leaves. */
export async function nthNewest(
  sql: Db,
  organizationId: string,
  alert: Pick<AlertRow, 'projectId' | 'filter'>,
  range: { from: Date; now: Date; n: number },
): Promise<Date | null> {
  const [row] = await sql<{ at: Date }[]>`
    SELECT e.created_at AS at FROM events e
    WHERE ${matching(sql, organizationId, alert.projectId, alert.filter)} AND e.created_at > ${range.from} AND e.created_at <= ${range.now}
    ORDER BY e.created_at DESC OFFSET ${range.n - 1} LIMIT 1`;
  return row?.at ?? null;
}

/** What an evaluation writes when nothing but the count and the next look changed. */
export async function recordCount(
  sql: Db,
  organizationId: string,
  alert: { id: string; revision: number; count: number; nextDueAt: Date | null },
): Promise<void> {
  await sql`
    UPDATE alerts a SET count = ${alert.count}, next_due_at = ${alert.nextDueAt}
    WHERE a.organization_id = ${organizationId} AND a.id = ${alert.id} AND a.revision = ${alert.revision}`;
}

/**
 * The compare-and-set of a transition or a renotification: moves the alert from `revision` to
 * the next one; false when anyone moved it first (then this evaluation's view is stale).
 */
export async function advanceAlert(
  sql: Db,
  organizationId: string,
  alert: { id: string; revision: number; state: AlertState; stateSince: Date; count: number; notifiedAt: Date | null; nextDueAt: Date | null },
): Promise<boolean> {
  const rows = await sql`
    UPDATE alerts a SET state = ${alert.state}, state_since = ${alert.stateSince}, count = ${alert.count},
      notified_at = ${alert.notifiedAt}, next_due_at = ${alert.nextDueAt}, revision = ${alert.revision + 1}
    WHERE a.organization_id = ${organizationId} AND a.id = ${alert.id} AND a.revision = ${alert.revision}
    RETURNING a.id`;
  return rows.length > 0;
}

/**
 * The history row of a transition. Its place in the alert's order is the revision the
 * compare-and-set moved the alert to: unique per alert and increasing (gaps are allowed). The
 * organization comes from the joined alert, so a distributed engine routes the insert.
 */
export async function insertTransition(
  sql: Db,
  organizationId: string,
  transition: { alertId: string; revision: number; state: AlertState; at: Date; count: number; eventId: number | null },
): Promise<void> {
  await sql`
    INSERT INTO alert_transitions AS t (organization_id, alert_id, seq, state, at, count, event_id)
    SELECT a.organization_id, a.id, ${transition.revision}, ${transition.state}, ${transition.at}, ${transition.count}, ${transition.eventId}
    FROM alerts a WHERE a.organization_id = ${organizationId} AND a.id = ${transition.alertId}`;
}

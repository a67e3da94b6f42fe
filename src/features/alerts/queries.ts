import type { Db } from '../../db/client.ts';

// The alerts' own rows: definitions, history, and the per-organization schedule row the engine
// leases (its evaluation SQL is in engineQueries.ts).

type CountMode = 'atLeast' | 'fewerThan';
export type AlertState = 'ok' | 'firing';

/** The stored filter, as the API took it (checkAlertInput.ts). */
export interface StoredFilter {
  category?: string;
  tags?: Record<string, string | number | boolean | null>;
  user_id?: string;
  search?: string;
}

export interface AlertRow {
  id: string;
  projectId: string;
  name: string;
  filter: StoredFilter;
  countMode: CountMode;
  threshold: number;
  windowSeconds: number;
  category: string;
  renotifySeconds: number | null;
  enabled: boolean;
  critical: boolean;
  mutedUntil: Date | null;
  state: AlertState;
  stateSince: Date;
  count: number | null;
  windowStart: Date;
  revision: number;
  notifiedAt: Date | null;
  nextDueAt: Date | null;
  createdAt: Date;
}

export const alertColumns = (sql: Db) => sql`
  a.id, a.project_id AS "projectId", a.name, a.filter, a.count_mode AS "countMode", a.threshold,
  a.window_seconds AS "windowSeconds", a.category, a.renotify_seconds AS "renotifySeconds", a.enabled, a.critical,
  a.muted_until AS "mutedUntil", a.state, a.state_since AS "stateSince", a.count, a.window_start AS "windowStart",
  a.revision, a.notified_at AS "notifiedAt", a.next_due_at AS "nextDueAt", a.created_at AS "createdAt"`;

/** A live project's alert (a deleted project's alerts are gone for every reader at once). */
const liveProject = (sql: Db) => sql`
  EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = a.organization_id AND p.id = a.project_id AND p.deleted_at IS NULL)`;

export interface NewAlert {
  id: string;
  projectId: string;
  name: string;
  filter: StoredFilter;
  countMode: CountMode;
  threshold: number;
  windowSeconds: number;
  category: string;
  renotifySeconds: number | null;
  enabled: boolean;
  critical: boolean;
  now: Date;
}

/** Inserts into the caller's live project; undefined when the project is not the organization's. */
export async function insertAlert(sql: Db, organizationId: string, alert: NewAlert): Promise<AlertRow | undefined> {
  // No CTE and the organization from the joined project: a distributed engine routes it (docs/scaling.md).
  const [row] = await sql<AlertRow[]>`
    INSERT INTO alerts AS a (organization_id, id, project_id, name, filter, count_mode, threshold, window_seconds, category,
                             renotify_seconds, enabled, critical, state, state_since, window_start, next_due_at, created_at)
    SELECT p.organization_id, ${alert.id}, p.id, ${alert.name}, ${JSON.stringify(alert.filter)}::text::jsonb, ${alert.countMode},
           ${alert.threshold}, ${alert.windowSeconds}, ${alert.category}, ${alert.renotifySeconds}, ${alert.enabled}, ${alert.critical}, 'ok',
           ${alert.now}, ${alert.now}, ${alert.now}, ${alert.now}
    FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${alert.projectId} AND p.deleted_at IS NULL
    RETURNING ${alertColumns(sql)}`;
  return row;
}

/**
 * Takes the organization's schedule row (made when missing) for the rest of the transaction, so
 * that creations of alerts in one organization count one after the other, then counts its alerts
 * of live projects (at most MAX_ALERTS_PER_ORGANIZATION: a bounded read, not a feed).
 */
export async function lockAndCountAlerts(sql: Db, organizationId: string, now: Date): Promise<number> {
  await sql`
    INSERT INTO alert_schedules AS s (organization_id, active, due_at) VALUES (${organizationId}, true, ${now})
    ON CONFLICT (organization_id) DO UPDATE SET active = true, due_at = excluded.due_at`;
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM alerts a WHERE a.organization_id = ${organizationId} AND ${liveProject(sql)}`;
  return row?.count ?? 0;
}

export function listAlerts(sql: Db, organizationId: string, projectId: string): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    SELECT ${alertColumns(sql)} FROM alerts a
    WHERE a.organization_id = ${organizationId} AND a.project_id = ${projectId} AND ${liveProject(sql)}
    ORDER BY a.created_at, a.id`;
}

export async function findAlert(sql: Db, organizationId: string, alertId: string): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow[]>`
    SELECT ${alertColumns(sql)} FROM alerts a
    WHERE a.organization_id = ${organizationId} AND a.id = ${alertId} AND ${liveProject(sql)}`;
  return row;
}

/** The whole new definition of an alert, as updateAlert computed it from the old one. */
export interface AlertDefinition {
  name: string;
  filter: StoredFilter;
  countMode: CountMode;
  threshold: number;
  windowSeconds: number;
  category: string;
  renotifySeconds: number | null;
  enabled: boolean;
  critical: boolean;
  state: AlertState;
  stateSince: Date;
  count: number | null;
  windowStart: Date;
  mutedUntil: Date | null;
  nextDueAt: Date | null;
}

/**
 * Writes a new definition if the alert is still at `revision` (an evaluation may have moved it
 * since it was read); undefined when it moved or is gone.
 */
export async function writeDefinition(sql: Db, organizationId: string, alertId: string, revision: number, d: AlertDefinition): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow[]>`
    UPDATE alerts a SET name = ${d.name}, filter = ${JSON.stringify(d.filter)}::text::jsonb, count_mode = ${d.countMode},
      threshold = ${d.threshold}, window_seconds = ${d.windowSeconds}, category = ${d.category},
      renotify_seconds = ${d.renotifySeconds}, enabled = ${d.enabled}, critical = ${d.critical}, state = ${d.state}, state_since = ${d.stateSince},
      count = ${d.count}, window_start = ${d.windowStart}, muted_until = ${d.mutedUntil}, revision = ${revision + 1},
      next_due_at = ${d.nextDueAt}
    WHERE a.organization_id = ${organizationId} AND a.id = ${alertId} AND a.revision = ${revision} AND ${liveProject(sql)}
    RETURNING ${alertColumns(sql)}`;
  return row;
}

export async function deleteAlert(sql: Db, organizationId: string, alertId: string): Promise<boolean> {
  const rows = await sql`
    DELETE FROM alerts a WHERE a.organization_id = ${organizationId} AND a.id = ${alertId} AND ${liveProject(sql)}
    RETURNING a.id`;
  return rows.length > 0;
}

interface TransitionRow {
  seq: number;
  state: AlertState;
  at: Date;
  count: number;
}

/** Newest first, below `beforeSeq` when given. */
export function listTransitions(sql: Db, organizationId: string, alertId: string, beforeSeq: number | undefined, limit: number): Promise<TransitionRow[]> {
  return sql<TransitionRow[]>`
    SELECT t.seq, t.state, t.at, t.count FROM alert_transitions t
    WHERE t.organization_id = ${organizationId} AND t.alert_id = ${alertId}
      ${beforeSeq !== undefined ? sql`AND t.seq < ${beforeSeq}` : sql``}
    ORDER BY t.seq DESC LIMIT ${limit}`;
}

/**
 * Asks the engine to look at the organization now: after any change to its alerts, so that the
 * change shows within one pass and the `active` flag is recomputed there.
 */
export async function scheduleNow(sql: Db, organizationId: string, now: Date): Promise<void> {
  await sql`
    INSERT INTO alert_schedules AS s (organization_id, active, due_at) VALUES (${organizationId}, true, ${now})
    ON CONFLICT (organization_id) DO UPDATE SET active = true, due_at = excluded.due_at`;
}

/**
 * The organization's firing alerts that are not muted at `now`, oldest firing first (the projects
 * page shows them). A mute ending at `now` or before is over, as the engine's `isMuted` judges it.
 */
export function listFiringAlerts(sql: Db, organizationId: string, now: Date): Promise<Array<{ projectId: string; id: string; name: string }>> {
  return sql<Array<{ projectId: string; id: string; name: string }>>`
    SELECT a.project_id AS "projectId", a.id, a.name FROM alerts a
    WHERE a.organization_id = ${organizationId} AND a.enabled AND a.state = 'firing'
      AND (a.muted_until IS NULL OR a.muted_until <= ${now})
    ORDER BY a.state_since, a.id`;
}

/** Which of these alerts are critical: the fan-out lets their events through quiet hours and snoozes. */
export function selectCriticalAlerts(sql: Db, keys: readonly { organizationId: string; alertId: string }[]): Promise<{ organizationId: string; id: string }[]> {
  return sql<{ organizationId: string; id: string }[]>`
    SELECT a.organization_id AS "organizationId", a.id
    FROM unnest(${keys.map((k) => k.organizationId)}::text[], ${keys.map((k) => k.alertId)}::text[]) AS k(organization_id, id)
    JOIN alerts a ON a.organization_id = k.organization_id AND a.id = k.id
    WHERE a.critical`;
}

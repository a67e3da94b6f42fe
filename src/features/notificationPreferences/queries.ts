import type { Db, Sql, TransactionSql } from '../../db/client.ts';
import { oneOrganization, sameOrganization } from '../../db/oneOrganization.ts';
import type { QuietHours } from './quietHours.ts';

// The preferences and held notifications of members. The fan-out's resolution and the summaries
// also read the push subscriptions and addresses they go to (decision 205): one statement per batch.

type Level = 'all' | 'alerts' | 'none';

export interface StoredPreferences {
  projects: Record<string, Level>;
  email: boolean;
  quietHours: QuietHours | null;
  snoozedUntil: Date | null;
}

export async function findPreferences(sql: Db, organizationId: string, userId: string): Promise<StoredPreferences | undefined> {
  const [row] = await sql<StoredPreferences[]>`
    SELECT projects, email, quiet_hours AS "quietHours", snoozed_until AS "snoozedUntil"
    FROM notification_preferences WHERE organization_id = ${organizationId} AND user_id = ${userId}`;
  return row;
}

export async function savePreferences(sql: Db, organizationId: string, userId: string, prefs: StoredPreferences): Promise<void> {
  await sql`
    INSERT INTO notification_preferences (organization_id, user_id, projects, email, quiet_hours, snoozed_until, updated_at)
    VALUES (${organizationId}, ${userId}, ${JSON.stringify(prefs.projects)}::text::jsonb, ${prefs.email},
            ${prefs.quietHours ? JSON.stringify(prefs.quietHours) : null}::text::jsonb, ${prefs.snoozedUntil}, now())
    ON CONFLICT (organization_id, user_id) DO UPDATE SET
      projects = excluded.projects, email = excluded.email, quiet_hours = excluded.quiet_hours,
      snoozed_until = excluded.snoozed_until, updated_at = excluded.updated_at`;
}

/** A member a project's notification may reach, by one browser subscription or (subscriptionId null) by mail. */
export interface AudienceRow {
  organizationId: string;
  projectId: string;
  userId: string;
  subscriptionId: string | null;
  address: string | null;
  level: 'all' | 'alerts';
  quietHours: QuietHours | null;
  snoozedUntil: Date | null;
}

/** A project of a fan-out batch, and whether an alert wrote any of the batch's events in it. */
export interface AudienceKey {
  organizationId: string;
  projectId: string;
  alerts: boolean;
}

/**
 * Everyone the batch's projects notify, with the preferences that decide it, in one statement:
 * each push subscription with its member's preferences (a member without a row follows the
 * defaults), and each member who asked for a copy by mail. Members at "none" are left out here,
 * and so are members at "alerts" for a project where no alert wrote any of the batch's events: the
 * statement's cost follows who may be notified, not how many members hold preferences (the email
 * copies' level is checked before their address is joined). Projects of one organization read
 * only its rows by a constant too, one shard's statement on Citus (decision 233).
 */
export function selectAudience(tx: TransactionSql, projects: readonly AudienceKey[]): Promise<AudienceRow[]> {
  const only = oneOrganization(projects);
  return tx<AudienceRow[]>`
    WITH k AS (
      -- The flags go as text: the driver sends a boolean array as one boolean.
      SELECT organization_id, project_id, alerts::boolean AS alerts
      FROM unnest(${projects.map((p) => p.organizationId)}::text[], ${projects.map((p) => p.projectId)}::text[],
                  ${projects.map((p) => String(p.alerts))}::text[]) AS k(organization_id, project_id, alerts)
    )
    SELECT "organizationId", "projectId", "userId", "subscriptionId", address, level, "quietHours", "snoozedUntil" FROM (
      SELECT s.organization_id AS "organizationId", s.project_id AS "projectId", s.user_id AS "userId", s.id AS "subscriptionId",
             NULL::text AS address, coalesce(np.projects ->> s.project_id, 'all') AS level,
             np.quiet_hours AS "quietHours", np.snoozed_until AS "snoozedUntil", k.alerts
      FROM k JOIN push_subscriptions s ON s.organization_id = k.organization_id AND s.project_id = k.project_id
      LEFT JOIN notification_preferences np ON np.organization_id = s.organization_id AND np.user_id = s.user_id ${sameOrganization(tx, 'np', only)}
      WHERE true ${sameOrganization(tx, 's', only)}
      UNION ALL
      SELECT np.organization_id, k.project_id, np.user_id, NULL, u.email, coalesce(np.projects ->> k.project_id, 'all'),
             np.quiet_hours, np.snoozed_until, k.alerts
      FROM k JOIN notification_preferences np ON np.organization_id = k.organization_id AND np.email
        AND (coalesce(np.projects ->> k.project_id, 'all') = 'all' OR (k.alerts AND np.projects ->> k.project_id = 'alerts'))
      JOIN users u ON u.organization_id = np.organization_id AND u.id = np.user_id ${sameOrganization(tx, 'u', only)}
      WHERE true ${sameOrganization(tx, 'np', only)}
    ) audience
    WHERE level = 'all' OR (level = 'alerts' AND alerts)`;
}

export interface NewHeld {
  organizationId: string;
  userId: string;
  id: string;
  projectId: string;
  eventId: number;
  title: string;
}

export async function insertHeld(tx: TransactionSql, rows: NewHeld[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx`
    INSERT INTO held_notifications (organization_id, user_id, id, project_id, event_id, title, held_at)
    SELECT organization_id, user_id, id, project_id, event_id, title, ${now}
    FROM json_to_recordset(${JSON.stringify(rows.map((r) => ({ organization_id: r.organizationId, user_id: r.userId, id: r.id, project_id: r.projectId, event_id: r.eventId, title: r.title })))}::text::json)
      AS t(organization_id text, user_id text, id text, project_id text, event_id int, title text)`;
}

/** A member with held notifications, with what decides whether the hold is over. */
export interface HoldingMember {
  organizationId: string;
  userId: string;
  email: boolean;
  address: string;
  quietHours: QuietHours | null;
  snoozedUntil: Date | null;
}

/** Members with notifications still held, of every organization (the partial index on pending rows). */
export function selectHoldingMembers(sql: Sql, limit: number): Promise<HoldingMember[]> {
  return sql<HoldingMember[]>`
    -- One flat statement (no LIMIT inside a join): Citus runs it on every shard and merges.
    SELECT DISTINCT h.organization_id AS "organizationId", h.user_id AS "userId", coalesce(np.email, false) AS email, u.email AS address,
           np.quiet_hours AS "quietHours", np.snoozed_until AS "snoozedUntil"
    FROM held_notifications h
    JOIN users u ON u.organization_id = h.organization_id AND u.id = h.user_id
    LEFT JOIN notification_preferences np ON np.organization_id = h.organization_id AND np.user_id = h.user_id
    WHERE h.released_at IS NULL
    LIMIT ${limit}`;
}

export interface ReleasedRow {
  projectId: string;
  eventId: number;
  title: string;
  heldAt: Date;
}

/**
 * Claims a member's held notifications for their summary: rows another process holds are skipped,
 * so each held row is summarised once, in the transaction that queues the summary.
 */
export function releaseHeld(tx: TransactionSql, organizationId: string, userId: string, now: Date): Promise<ReleasedRow[]> {
  return tx<ReleasedRow[]>`
    UPDATE held_notifications h SET released_at = ${now}
    WHERE h.organization_id = ${organizationId} AND h.user_id = ${userId} AND h.id IN (
      SELECT c.id FROM held_notifications c
      WHERE c.organization_id = ${organizationId} AND c.user_id = ${userId} AND c.released_at IS NULL
      FOR UPDATE SKIP LOCKED)
    RETURNING h.project_id AS "projectId", h.event_id AS "eventId", h.title, h.held_at AS "heldAt"`;
}

/** One subscription per browser of the member (a browser subscribes once per project). */
export function selectMemberBrowsers(tx: TransactionSql, organizationId: string, userId: string): Promise<{ id: string }[]> {
  return tx<{ id: string }[]>`
    SELECT DISTINCT ON (s.endpoint) s.id FROM push_subscriptions s
    WHERE s.organization_id = ${organizationId} AND s.user_id = ${userId}
    ORDER BY s.endpoint, s.created_at DESC`;
}

/** What a member's summaries released in a period, newest first (their digest lists it), and how many. */
export function selectReleased(
  sql: Db,
  q: { organizationId: string; userId: string; from: Date; to: Date; limit: number },
): Promise<(ReleasedRow & { total: number })[]> {
  return sql<(ReleasedRow & { total: number })[]>`
    SELECT project_id AS "projectId", event_id AS "eventId", title, held_at AS "heldAt", (count(*) OVER ())::int AS total
    FROM held_notifications
    WHERE organization_id = ${q.organizationId} AND user_id = ${q.userId} AND released_at >= ${q.from} AND released_at < ${q.to}
    ORDER BY held_at DESC, id DESC LIMIT ${q.limit}`;
}

/** Released rows are kept a little over a weekly digest's period, then removed. */
export async function pruneReleased(sql: Sql, before: Date): Promise<void> {
  await sql`DELETE FROM held_notifications WHERE released_at IS NOT NULL AND released_at < ${before}`;
}

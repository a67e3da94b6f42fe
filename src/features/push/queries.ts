import type { Db, Sql, TransactionSql } from '../../db/client.ts';

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

// ---- The delivery worker ---------------------------------------------------------------------

/** The subscriptions of these projects, each given with its organization. */
export function selectSubscriptions(
  tx: Db,
  projects: readonly { organizationId: string; projectId: string }[],
): Promise<{ organizationId: string; id: string; projectId: string }[]> {
  return tx<{ organizationId: string; id: string; projectId: string }[]>`
    SELECT s.organization_id AS "organizationId", s.id, s.project_id AS "projectId"
    FROM unnest(${projects.map((p) => p.organizationId)}::text[], ${projects.map((p) => p.projectId)}::text[])
      AS k(organization_id, project_id)
    JOIN push_subscriptions s ON s.organization_id = k.organization_id AND s.project_id = k.project_id`;
}

export interface NewPushJob {
  organizationId: string;
  id: string;
  subscriptionId: string;
  eventId: number;
  payload: string;
  maxAttempts: number;
}

export async function insertPushJobs(tx: TransactionSql, jobs: NewPushJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const records = jobs.map((j) => ({
    organization_id: j.organizationId,
    id: j.id,
    subscription_id: j.subscriptionId,
    event_id: j.eventId,
    payload: j.payload,
    max_attempts: j.maxAttempts,
  }));
  await tx`
    INSERT INTO push_jobs (organization_id, id, subscription_id, event_id, payload, max_attempts)
    SELECT organization_id, id, subscription_id, event_id, payload, max_attempts
    FROM json_to_recordset(${JSON.stringify(records)}::text::json) AS t(
      organization_id text, id text, subscription_id text, event_id int, payload text, max_attempts int)`;
}

export interface ClaimedPushJob {
  organizationId: string;
  id: string;
  leaseToken: string;
  payload: string;
  attempts: number;
  maxAttempts: number;
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Leases due pushes exactly as deliveries are leased: a lease that expires, taken by an UPDATE
 * whose outer WHERE re-checks that the job is still due and unleased once its row lock is held,
 * so a concurrent claimer of the same rows skips them.
 */
export function claimDuePushJobs(
  sql: Sql,
  q: { limit: number; leaseMs: number; leaseToken: string; scope: readonly string[] | undefined },
): Promise<ClaimedPushJob[]> {
  return sql<ClaimedPushJob[]>`
    UPDATE push_jobs j
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', lease_token = ${q.leaseToken}
    FROM push_subscriptions s
    WHERE (j.organization_id, j.id) IN (
      SELECT c.organization_id, c.id FROM push_jobs c
      WHERE c.next_attempt_at <= now() AND (c.locked_until IS NULL OR c.locked_until < now())
        ${q.scope ? sql`AND c.organization_id = ANY(${q.scope as string[]}::text[])` : sql``}
      ORDER BY c.next_attempt_at LIMIT ${q.limit}
    )
      AND j.next_attempt_at <= now() AND (j.locked_until IS NULL OR j.locked_until < now())
      AND s.organization_id = j.organization_id AND s.id = j.subscription_id
    RETURNING j.organization_id AS "organizationId", j.id, j.lease_token AS "leaseToken", j.payload, j.attempts,
              j.max_attempts AS "maxAttempts", s.id AS "subscriptionId", s.endpoint, s.p256dh, s.auth`;
}

export async function reschedulePushJob(
  sql: Sql,
  job: { organizationId: string; id: string; leaseToken: string },
  delayMs: number,
): Promise<void> {
  await sql`
    UPDATE push_jobs SET attempts = attempts + 1, next_attempt_at = now() + ${delayMs} * interval '1 millisecond',
      locked_until = NULL, lease_token = NULL
    WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

export async function deletePushJob(sql: Sql, job: { organizationId: string; id: string; leaseToken: string }): Promise<void> {
  await sql`DELETE FROM push_jobs WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

/** The push service said the subscription is gone (404 or 410): it and its queued pushes go. */
export async function deleteSubscription(sql: Sql, organizationId: string, id: string): Promise<void> {
  await sql`DELETE FROM push_subscriptions WHERE organization_id = ${organizationId} AND id = ${id}`;
}

export async function insertSettingIfAbsent(sql: Sql, key: string, value: string): Promise<void> {
  await sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
}

export async function readSetting(sql: Sql, key: string): Promise<string | undefined> {
  const [row] = await sql<{ value: string }[]>`SELECT value FROM settings WHERE key = ${key}`;
  return row?.value;
}

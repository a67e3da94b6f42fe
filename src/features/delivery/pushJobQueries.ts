import type { Sql } from '../../db/client.ts';

// Web push jobs as the worker sends them; a subscription the push service calls gone goes too.

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
export function claimDuePushJobs(sql: Sql, q: { limit: number; leaseMs: number; leaseToken: string }): Promise<ClaimedPushJob[]> {
  return sql<ClaimedPushJob[]>`
    UPDATE push_jobs j
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', lease_token = ${q.leaseToken}
    FROM push_subscriptions s
    WHERE (j.organization_id, j.id) IN (
      SELECT c.organization_id, c.id FROM push_jobs c
      WHERE c.next_attempt_at <= now() AND (c.locked_until IS NULL OR c.locked_until < now())
      ORDER BY c.next_attempt_at LIMIT ${q.limit}
    )
      AND j.next_attempt_at <= now() AND (j.locked_until IS NULL OR j.locked_until < now())
      AND s.organization_id = j.organization_id AND s.id = j.subscription_id
    RETURNING j.organization_id AS "organizationId", j.id, j.lease_token AS "leaseToken", j.payload, j.attempts,
              j.max_attempts AS "maxAttempts", s.id AS "subscriptionId", s.endpoint, s.p256dh, s.auth`;
}

export async function reschedulePushJob(sql: Sql, job: { organizationId: string; id: string; leaseToken: string }, delayMs: number): Promise<void> {
  await sql`
    UPDATE push_jobs SET attempts = attempts + 1, next_attempt_at = now() + ${delayMs} * interval '1 millisecond',
      locked_until = NULL, lease_token = NULL
    WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

export async function deletePushJob(sql: Sql, job: { organizationId: string; id: string; leaseToken: string }): Promise<void> {
  await sql`DELETE FROM push_jobs WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

import type { Db, Sql } from '../../db/client.ts';
import type { OutgoingMail } from '../../ports.ts';

// The mail queue: every organization's rows, since its sender serves them all.

export async function insertMailJob(
  sql: Db,
  job: { organizationId: string; id: string; kind: string; mail: OutgoingMail; maxAttempts: number },
): Promise<void> {
  await sql`
    INSERT INTO mail_jobs (organization_id, id, kind, recipients, subject, text_body, html_body, max_attempts)
    VALUES (${job.organizationId}, ${job.id}, ${job.kind}, ${job.mail.to}::text[], ${job.mail.subject}, ${job.mail.text},
            ${job.mail.html}, ${job.maxAttempts})`;
}

export interface ClaimedMailJob {
  organizationId: string;
  id: string;
  kind: string;
  recipients: string[];
  subject: string;
  text: string;
  html: string;
  attempts: number;
  maxAttempts: number;
  leaseToken: string;
}

/**
 * Leases due mail (locked_until) as deliveries are leased: the outer WHERE repeats the
 * subquery's conditions, so of two claimers that picked the same rows the second skips them.
 */
export function claimDueMailJobs(sql: Sql, q: { limit: number; leaseMs: number; leaseToken: string }): Promise<ClaimedMailJob[]> {
  return sql<ClaimedMailJob[]>`
    UPDATE mail_jobs m
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', lease_token = ${q.leaseToken}
    WHERE (m.organization_id, m.id) IN (
      SELECT c.organization_id, c.id FROM mail_jobs c
      WHERE c.next_attempt_at <= now() AND (c.locked_until IS NULL OR c.locked_until < now())
      ORDER BY c.next_attempt_at LIMIT ${q.limit}
    )
      AND m.next_attempt_at <= now() AND (m.locked_until IS NULL OR m.locked_until < now())
    RETURNING m.organization_id AS "organizationId", m.id, m.kind, m.recipients, m.subject, m.text_body AS text,
              m.html_body AS html, m.attempts, m.max_attempts AS "maxAttempts", m.lease_token AS "leaseToken"`;
}

/** Sent, or given up: the row goes, if this process still holds its lease. */
export async function finishMailJob(sql: Sql, job: { organizationId: string; id: string; leaseToken: string }): Promise<void> {
  await sql`DELETE FROM mail_jobs WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

export async function retryMailJobLater(sql: Sql, job: { organizationId: string; id: string; leaseToken: string; delayMs: number }): Promise<void> {
  await sql`
    UPDATE mail_jobs SET attempts = attempts + 1, locked_until = NULL, lease_token = NULL,
      next_attempt_at = now() + ${job.delayMs} * interval '1 millisecond'
    WHERE organization_id = ${job.organizationId} AND id = ${job.id} AND lease_token = ${job.leaseToken}`;
}

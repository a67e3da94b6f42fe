import type { Db } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { OutgoingMail } from '../../ports.ts';
import { insertMailJob } from './queries.ts';

/**
 * Puts one mail in the durable queue (`mail_jobs`), in the caller's transaction when it has one:
 * the queue sends it, retries a refused attempt and survives a restart. The caller wakes the
 * queue after its commit so this process sends it at once.
 */
export async function enqueueMail(sql: Db, job: { organizationId: string; kind: string; mail: OutgoingMail; maxAttempts?: number }): Promise<void> {
  await insertMailJob(sql, { organizationId: job.organizationId, id: newId(16), kind: job.kind, mail: job.mail, maxAttempts: job.maxAttempts ?? 3 });
}

import type { Db } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { OutgoingMail } from '../../ports.ts';
import { insertMailJob } from './queries.ts';

/** Attempts a queued mail gets before it is given up (as a webhook delivery). */
const DEFAULT_ATTEMPTS = 3;

/**
 * The one road for a mail to a person: a durable `mail_jobs` row written in the caller's
 * transaction, sent by the mail queue after it commits (and again after a restart, until it is
 * sent or has used its attempts). Nothing is sent if the transaction rolls back.
 */
export async function queueMail(tx: Db, job: { organizationId: string; kind: string; mail: OutgoingMail; maxAttempts?: number }): Promise<void> {
  await insertMailJob(tx, {
    organizationId: job.organizationId,
    id: newId(16),
    kind: job.kind,
    mail: job.mail,
    maxAttempts: job.maxAttempts ?? DEFAULT_ATTEMPTS,
  });
}

import type { TransactionSql } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { insertPushJobs } from './queries.ts';

/**
 * Queues pushes written elsewhere than the fan-out (a member's summary of held notifications) in
 * the caller's transaction: the push channel sends them like any push job. `eventId` is the event
 * the push stands for (the newest one a summary covers).
 */
export async function queuePushJobs(
  tx: TransactionSql,
  jobs: readonly { organizationId: string; subscriptionId: string; eventId: number; payload: string; maxAttempts: number }[],
): Promise<void> {
  await insertPushJobs(
    tx,
    jobs.map((job) => ({ ...job, id: newId(16) })),
  );
}

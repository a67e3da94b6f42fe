import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import type { Sql } from './db/client.ts';
import { AlertEngine } from './features/alerts/alertEngine.ts';
import { AuditPruner } from './features/audit/auditPruner.ts';
import { DigestScheduler } from './features/digests/digestScheduler.ts';
import { RetentionPruner } from './features/events/retentionPruner.ts';
import { SearchIndexer } from './features/events/searchIndexer.ts';
import { HeldSummaries } from './features/notificationPreferences/heldSummaries.ts';
import type { BackgroundJob } from './lib/periodicTask.ts';

/**
 * Every loop the server runs beside its requests, in the order they start; they stop together,
 * after the last request and before the database closes. Commands and tests run
 * none of them unless they start one themselves: a command must not send anyone's webhooks.
 * A new loop is built here and nowhere else (docs/architecture.md, "Background work").
 */
export function backgroundJobs(config: Config, services: Services, sql: Sql, log: FastifyBaseLogger): BackgroundJob[] {
  const { mailQueue } = services;
  const indexer = new SearchIndexer(sql, log);
  const jobs: BackgroundJob[] = [
    services.deliveries,
    services.purger,
    new RetentionPruner(sql, { intervalSeconds: config.retentionIntervalSeconds, timeZone: config.timeZone, log }),
    { start: () => indexer.start(services.bus), stop: () => indexer.stop() },
    new AlertEngine({ sql, bus: services.bus, log, intervalSeconds: config.alertIntervalSeconds, timeZone: config.timeZone }),
  ];
  // Digests are mail: without SMTP there is nobody to send them.
  if (config.smtp) jobs.push(new DigestScheduler({ sql, baseUrl: config.baseUrl, log, enqueued: () => mailQueue.wake() }));
  // Held notifications' summaries, once quiet hours or a snooze end (decision 205).
  jobs.push(
    new HeldSummaries({
      sql,
      baseUrl: config.baseUrl,
      log,
      queued: () => {
        mailQueue.wake();
        services.deliveries.wake();
      },
    }),
  );
  jobs.push(mailQueue, new AuditPruner(sql, log));
  return jobs;
}

/**
 * Stops every job at once and waits for all of them: each waits only for its own pass in flight,
 * and none needs another to run meanwhile. One after the other, their waits added up past the
 * stop's 10 s on a loaded machine whose database had just restarted.
 */
export async function stopBackgroundJobs(jobs: readonly BackgroundJob[]): Promise<void> {
  await Promise.all(jobs.map((job) => job.stop()));
}

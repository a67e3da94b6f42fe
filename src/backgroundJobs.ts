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
 * Every loop the server runs beside its requests, in the order they start; they stop in the
 * reverse order, after the last request and before the database closes. Commands and tests run
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
  jobs.push(new HeldSummaries({ sql, baseUrl: config.baseUrl, log, queued: () => { mailQueue.wake(); services.deliveries.wake(); } }));
  jobs.push(mailQueue, new AuditPruner(sql, log));
  return jobs;
}

/** Stops the jobs in the reverse order of their start, each after the one started after it. */
export async function stopBackgroundJobs(jobs: readonly BackgroundJob[]): Promise<void> {
  for (const job of [...jobs].reverse()) await job.stop();
}

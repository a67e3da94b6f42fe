import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import { Bus } from './db/bus.ts';
import type { Sql } from './db/client.ts';
import { DatabaseHealth } from './db/health.ts';
import { DeliveryWorker } from './features/delivery/deliveryWorker.ts';
import { IngestBatcher } from './features/events/ingestBatcher.ts';
import { KnownCategories } from './features/events/knownCategories.ts';
import { TagsIndexCleaner } from './features/events/tagsIndexCleaner.ts';
import { HookResolver } from './features/hooks/hookResolver.ts';
import { KeyAuthenticator } from './features/keys/keyAuthenticator.ts';
import { Mailer } from './features/email/mailer.ts';
import { MailQueue } from './features/email/mailQueue.ts';
import { ProjectPurger } from './features/projects/projectPurger.ts';
import { TagRollupBackfiller } from './features/charts/tagRollupBackfiller.ts';

/** Wires the long-lived services around an open pool; `listen` subscribes to other processes. */
export async function createServices(
  config: Config,
  sql: Sql,
  log: FastifyBaseLogger,
  /**
   * `backgroundSql`: the pool of work no request waits for (the bus's LISTEN, deliveries, the
   * purger), without the request pool's statement time limit; the request pool by default.
   */
  { listen = true, backgroundSql = sql }: { listen?: boolean; backgroundSql?: Sql } = {},
): Promise<{ services: Services; close: () => Promise<void> }> {
  const bus = new Bus(backgroundSql, (err, message) => log.warn({ err }, message));
  if (listen) await bus.start();
  const health = new DatabaseHealth(sql);
  health.start();
  if (listen) {
    health.onRecovered(() => {
      log.info('the database answers again');
      bus.relisten().catch((err: unknown) => log.warn({ err }, 'listening again after the database came back failed'));
    });
  }
  const cleaner = new TagsIndexCleaner(sql);
  const warn = (message: string, organizationId: string) => log.warn({ organizationId }, message);
  const knownCategories = new KnownCategories();
  const ingest = new IngestBatcher(sql, { cleaner, warn, knownCategories, timeZone: config.timeZone });
  // Incoming hooks refuse events over the monthly cap (the API only counts them).
  const hookIngest = new IngestBatcher(sql, { cleaner, warn, knownCategories, usage: 'capped', timeZone: config.timeZone });
  const hooks = new HookResolver(sql, bus);
  const keys = new KeyAuthenticator(sql, bus, (err, message) => log.error({ err }, message));
  // One pooled SMTP transport per process, shared by every sender of mail.
  const mailer = new Mailer(config.smtp, log);
  const mailQueue = new MailQueue({ sql: backgroundSql, mailer, log });
  // Built here, started by the server only: a command or a test must not send anyone's webhooks.
  const deliveries = new DeliveryWorker({ sql: backgroundSql, bus, config, log, mailer });
  const purger = new ProjectPurger(backgroundSql, log);
  const tagRollups = new TagRollupBackfiller(backgroundSql, log, config.timeZone);
  const services: Services = { sql, bus, config, log, health, ingest, hookIngest, hooks, keys, deliveries, purger, mailer, mailQueue, tagRollups };
  return {
    services,
    close: async () => {
      await deliveries.stop();
      await purger.stop();
      await tagRollups.stop();
      await mailQueue.stop();
      mailer.close();
      await Promise.all([ingest.drain(), hookIngest.drain()]);
      keys.close();
      hooks.close();
      health.stop();
      await bus.close();
    },
  };
}

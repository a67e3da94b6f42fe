import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { AlertEngine } from './features/alerts/alertEngine.ts';
import { AuditPruner } from './features/audit/auditPruner.ts';
import { syncChartTimeZone } from './features/charts/syncChartTimeZone.ts';
import { DigestScheduler } from './features/digests/digestScheduler.ts';
import { MailQueue } from './features/email/mailQueue.ts';
import { RetentionPruner } from './features/events/retentionPruner.ts';
import { SearchIndexer } from './features/events/searchIndexer.ts';
import { isWriteAfterClose } from './db/driverQuirks.ts';
import { createLogger, logFormat } from './logger.ts';
import { announceReady } from './ready.ts';
import { createServices } from './services.ts';

/** A graceful stop that takes longer than this is cut short (the issue of a lost database). */
const STOP_DEADLINE_MS = 9000;

/** Process entry: settings, database, migrations, listen; a graceful stop on SIGTERM/SIGINT. */
export async function serve(): Promise<void> {
  const format = logFormat();
  const log = createLogger(undefined, format);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`eventlog: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // Assigned once the app is up; a PostgreSQL that cannot be kept running ends the process.
  let giveUp = (error: Error): void => {
    log.fatal({ err: error }, 'giving up on the embedded PostgreSQL');
    process.exit(1);
  };
  const db = await openDatabase(config, {
    log: (message) => log.info(message),
    poolSize: 20,
    clusterLog: (message) => log.debug(message),
    supervise: {
      lost: (reason) => log.error(`the embedded PostgreSQL stopped unexpectedly (${reason}); starting it again`),
      restarted: (attempt) => log.warn(`the embedded PostgreSQL is running again (attempt ${attempt})`),
      gaveUp: (error) => giveUp(error),
    },
  });
  try {
    // Only the server rebuckets charts after a TZ change; commands leave that to its start.
    await syncChartTimeZone(db.sql, config.timeZone, (message) => log.info(message));
  } catch (error) {
    await db.close();
    throw error;
  }
  const { services, close: closeServices } = await createServices(config, db.sql, log);
  const app = await buildApp({ services });
  const pruner = new RetentionPruner(db.sql, { intervalSeconds: config.retentionIntervalSeconds, timeZone: config.timeZone, log });
  const indexer = new SearchIndexer(db.sql, log);
  const alerts = new AlertEngine({ sql: db.sql, bus: services.bus, log, intervalSeconds: config.alertIntervalSeconds, timeZone: config.timeZone });
  const mailQueue = new MailQueue({ sql: db.sql, mailer: services.mailer, log });
  const digests = new DigestScheduler({ sql: db.sql, baseUrl: config.baseUrl, log, enqueued: () => mailQueue.wake() });
  const auditPruner = new AuditPruner(db.sql, log);

  let stopping = false;
  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping`);
    // Whatever hangs (a database that went away mid-request), the process is gone within 10 s.
    setTimeout(() => {
      log.error(`still stopping after ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(code || 1);
    }, STOP_DEADLINE_MS).unref();
    try {
      await app.close();
      await pruner.stop();
      await indexer.stop();
      await alerts.stop();
      await digests.stop();
      await mailQueue.stop();
      await auditPruner.stop();
      await closeServices();
      await db.close();
      process.exit(code);
    } catch (error) {
      log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  giveUp = (error) => {
    log.fatal({ err: error }, 'giving up on the embedded PostgreSQL');
    process.stderr.write(`eventlog: ${error.message}\n`);
    void stop('database lost', 1);
  };
  // One known driver throw is survivable (db/driverQuirks.ts); anything else still ends the process.
  process.on('uncaughtException', (error) => {
    if (isWriteAfterClose(error)) return log.warn({ err: error }, 'a write to a closed database connection was dropped');
    log.fatal({ err: error }, 'uncaught exception');
    process.stderr.write(`${error.stack ?? String(error)}\n`);
    process.exit(1);
  });
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
    // Stopped by closeServices, after the last request and before the database closes.
    services.deliveries.start();
    services.purger.start();
    pruner.start();
    indexer.start(services.bus);
    alerts.start();
    if (config.smtp) digests.start();
    mailQueue.start();
    auditPruner.start();
  } catch (error) {
    log.error({ err: error }, 'could not listen');
    await closeServices();
    await db.close();
    process.exit(1);
  }
  await announceReady(services, { human: format === 'pretty' }).catch((error: unknown) => log.warn({ err: error }, 'could not describe the start'));
}

import { buildApp } from './app.ts';
import { backgroundJobs, stopBackgroundJobs } from './backgroundJobs.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createClient } from './db/client.ts';
import { openDatabase } from './db/open.ts';
import { syncChartTimeZone } from './features/charts/syncChartTimeZone.ts';
import { isLostQueryUnheard, isWriteAfterClose } from './db/driverQuirks.ts';
import { BACKGROUND_STATEMENT_TIMEOUT_MS, REQUEST_STATEMENT_TIMEOUT_MS } from './lib/limits.ts';
import { createLogger, logFormat } from './logger.ts';
import { announceReady } from './ready.ts';
import { createServices } from './services.ts';

/** A graceful stop that takes longer than this is cut short (the issue of a lost database). */
const STOP_DEADLINE_MS = 9000;
/**
 * Three pools: requests' statements run under REQUEST_STATEMENT_TIMEOUT_MS; the background loops
 * (indexer, pruner, purger, alerts, mail, deliveries, the bus) under BACKGROUND_STATEMENT_TIMEOUT_MS,
 * on a pool of their own so that a slow batch never takes a request's connection (docs/scaling.md)
 * and no organization's work holds a connection for long (decision 200); migrations and the
 * chart time-zone rebuild at the start run without a limit on a small pool that then idles.
 */
const REQUEST_POOL_SIZE = 16;
const BACKGROUND_POOL_SIZE = 6;
const START_POOL_SIZE = 2;

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
  // Signals are heard from the first moment (decision 140): one that arrives while the server
  // starts aborts the start (a half-started PostgreSQL is shut down) and the server exits once
  // what it started is stopped. Repeated signals change nothing: the one stop is under way.
  const starting = new AbortController();
  let stop = (signal: string, _code?: number): Promise<void> => {
    if (!starting.signal.aborted) log.info(`${signal} received while starting; stopping`);
    starting.abort();
    return Promise.resolve();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
  const abandonStart = async (close: () => Promise<void>) => {
    await close();
    process.exit(0);
  };

  const db = await openDatabase(config, {
    abort: starting.signal,
    log: (message) => log.info(message),
    poolSize: START_POOL_SIZE,
    clusterLog: (message) => log.debug(message),
    supervise: {
      lost: (reason) => log.error(`the embedded PostgreSQL stopped unexpectedly (${reason}); starting it again`),
      restarted: (attempt) => log.warn(`the embedded PostgreSQL is running again (attempt ${attempt})`),
      gaveUp: (error) => giveUp(error),
    },
  }).catch((error: unknown) => {
    if (starting.signal.aborted) process.exit(0);
    throw error;
  });
  if (starting.signal.aborted) return abandonStart(() => db.close());
  try {
    // Only the server rebuckets charts after a TZ change; commands leave that to its start.
    await syncChartTimeZone(db.sql, config.timeZone, (message) => log.info(message));
  } catch (error) {
    await db.close();
    throw error;
  }
  const requestSql = createClient(db.url, { max: REQUEST_POOL_SIZE, timeZone: config.timeZone, statementTimeoutMs: REQUEST_STATEMENT_TIMEOUT_MS });
  const backgroundSql = createClient(db.url, { max: BACKGROUND_POOL_SIZE, timeZone: config.timeZone, statementTimeoutMs: BACKGROUND_STATEMENT_TIMEOUT_MS });
  const closeDatabase = async () => {
    // Every pool at once: one after the other could wait 5 s each and pass the stop's deadline.
    await Promise.all([requestSql.end({ timeout: 5 }), backgroundSql.end({ timeout: 5 }), db.sql.end({ timeout: 5 })]);
    await db.close();
  };
  const { services, close: closeServices } = await createServices(config, requestSql, log, { backgroundSql });
  const app = await buildApp({ services });
  const jobs = backgroundJobs(config, services, backgroundSql, log);

  if (starting.signal.aborted) {
    return abandonStart(async () => {
      await app.close();
      await closeServices();
      await closeDatabase();
    });
  }

  let stopping = false;
  stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping`);
    // The step under way, for the message of a stop that overran.
    let step = 'the requests in flight';
    // Whatever hangs (a database that went away mid-request), the process is gone within 10 s,
    // and the PostgreSQL it started is told to shut down on its way out.
    setTimeout(() => {
      log.error(`still stopping after ${STOP_DEADLINE_MS / 1000} s (waiting for ${step}); exiting`);
      db.signalStop();
      process.exit(code || 1);
    }, STOP_DEADLINE_MS).unref();
    try {
      await app.close();
      step = 'the background jobs';
      await stopBackgroundJobs(jobs);
      step = 'the services (deliveries, mail, queued events, announcements)';
      await closeServices();
      step = 'the database';
      await closeDatabase();
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
  // Two driver failures are survivable (db/driverQuirks.ts, decision 091); anything else still ends the process.
  process.on('uncaughtException', (error, origin) => {
    if (isWriteAfterClose(error)) return log.warn({ err: error }, 'a write to a closed database connection was dropped');
    if (isLostQueryUnheard(error, origin)) return log.warn({ err: error }, 'a query the lost database failed had nobody waiting for it');
    log.fatal({ err: error }, 'uncaught exception');
    process.stderr.write(`${error.stack ?? String(error)}\n`);
    db.signalStop();
    process.exit(1);
  });

  try {
    await app.listen({ port: config.port, host: config.host });
    for (const job of jobs) job.start();
  } catch (error) {
    log.error({ err: error }, 'could not listen');
    await closeServices();
    await closeDatabase();
    process.exit(1);
  }
  await announceReady(services, { human: format === 'pretty' }).catch((error: unknown) => log.warn({ err: error }, 'could not describe the start'));
}

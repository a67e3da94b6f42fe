import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { syncChartTimeZone } from './features/charts/syncChartTimeZone.ts';
import { createLogger } from './logger.ts';
import { createServices } from './services.ts';

/** Process entry: settings, database, migrations, listen; a graceful stop on SIGTERM/SIGINT. */
export async function serve(): Promise<void> {
  const log = createLogger();
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

  const db = await openDatabase(config, { log: (message) => log.info(message), poolSize: 20, clusterLog: (message) => log.debug(message) });
  try {
    // Only the server rebuckets charts after a TZ change; commands leave that to its start.
    await syncChartTimeZone(db.sql, config.timeZone, (message) => log.info(message));
  } catch (error) {
    await db.close();
    throw error;
  }
  const { services, close: closeServices } = await createServices(config, db.sql, log);
  const app = await buildApp({ services });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping`);
    try {
      await app.close();
      await closeServices();
      await db.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
    // Stopped by closeServices, after the last request and before the database closes.
    services.deliveries.start();
  } catch (error) {
    log.error({ err: error }, 'could not listen');
    await closeServices();
    await db.close();
    process.exit(1);
  }
}

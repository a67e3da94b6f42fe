import type { Config } from './config.ts';
import { OPERATOR, type Services } from './context.ts';
import { isSetupNeeded } from './features/sessions/isSetupNeeded.ts';

/** The store in use, for people: never DATABASE_URL's password (nor its user). */
function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PostgreSQL in ${config.dataDir}`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL at DATABASE_URL';
  }
}

/**
 * Once the server listens: one structured log line always, and when a person is reading the
 * output (`human`) one plain line on stderr saying where to go next.
 */
export async function announceReady(services: Services, { human }: { human: boolean }): Promise<void> {
  const { config, log } = services;
  const dashboard = `${config.baseUrl}/app/`;
  const setupNeeded = await isSetupNeeded({ ctx: { services, actor: OPERATOR } });
  const database = describeDatabase(config);
  log.info({ dashboard, setupNeeded, database }, 'ready');
  if (!human) return;
  const next = setupNeeded ? 'open it to create the first account' : 'sign in there';
  process.stderr.write(`\nEventlog is ready: ${dashboard} (${next}). Database: ${database}.\n\n`);
}

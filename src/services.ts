import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import { Bus } from './db/bus.ts';
import type { Sql } from './db/client.ts';
import { IngestBatcher } from './features/events/ingestBatcher.ts';

/** Wires the long-lived services around an open pool; `listen` subscribes to other processes. */
export async function createServices(
  config: Config,
  sql: Sql,
  log: FastifyBaseLogger,
  { listen = true } = {},
): Promise<{ services: Services; close(): Promise<void> }> {
  const bus = new Bus(sql, (err, message) => log.warn({ err }, message));
  if (listen) await bus.start();
  const ingest = new IngestBatcher(sql);
  const services: Services = { sql, bus, config, log, ingest };
  return {
    services,
    close: async () => {
      await ingest.drain();
      await bus.close();
    },
  };
}

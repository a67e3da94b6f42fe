import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import { Bus } from './db/bus.ts';
import type { Sql } from './db/client.ts';
import { DeliveryWorker } from './features/destinations/deliveryWorker.ts';
import { IngestBatcher } from './features/events/ingestBatcher.ts';
import { KeyAuthenticator } from './features/keys/keyAuthenticator.ts';

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
  const keys = new KeyAuthenticator(sql, bus, (err, message) => log.error({ err }, message));
  // Built here, started by the server only: a command or a test must not send anyone's webhooks.
  const deliveries = new DeliveryWorker({ sql, bus, config, log });
  const services: Services = { sql, bus, config, log, ingest, keys, deliveries };
  return {
    services,
    close: async () => {
      await deliveries.stop();
      await ingest.drain();
      keys.close();
      await bus.close();
    },
  };
}

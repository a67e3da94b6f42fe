import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Bus } from './db/bus.ts';
import type { Sql } from './db/client.ts';
import type { DeliveryWorker } from './features/destinations/deliveryWorker.ts';
import type { IngestBatcher } from './features/events/ingestBatcher.ts';
import type { HookResolver } from './features/hooks/hookResolver.ts';
import type { KeyAuthenticator } from './features/keys/keyAuthenticator.ts';

/** Long-lived things a verb may use. Built once per process by buildApp's caller. */
export interface Services {
  sql: Sql;
  bus: Bus;
  config: Config;
  log: FastifyBaseLogger;
  /** Group commit for event writes. */
  ingest: IngestBatcher;
  /** Group commit for incoming hooks: refuses events over the organization's monthly cap. */
  hookIngest: IngestBatcher;
  /** Hook URL token → enabled hook, cached; pauses and deletes evict it. */
  hooks: HookResolver;
  /** Bearer key → organization, cached; revocations evict it. */
  keys: KeyAuthenticator;
  /** Outgoing webhooks and web push. Started by the server (tests start their own), never by a verb. */
  deliveries: DeliveryWorker;
}

/** Who is calling: an API key, or a signed-in dashboard user. */
export type Actor = { kind: 'key'; keyId: string } | { kind: 'user'; userId: string; sessionId: string };

/** Every verb receives this: the organization scopes every query it makes. */
export interface Ctx {
  services: Services;
  organizationId: string;
  actor: Actor;
}

export interface VerbArgs<I> {
  ctx: Ctx;
  input: I;
}

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Bus } from './db/bus.ts';
import type { Sql } from './db/client.ts';
import type { DatabaseHealth } from './db/health.ts';
import type { DeliveryWorker } from './features/delivery/deliveryWorker.ts';
import type { IngestBatcher } from './features/events/ingestBatcher.ts';
import type { HookResolver } from './features/hooks/hookResolver.ts';
import type { KeyAuthenticator } from './features/keys/keyAuthenticator.ts';
import type { ProjectPurger } from './features/projects/projectPurger.ts';

/** Long-lived things a verb may use. Built once per process by buildApp's caller. */
export interface Services {
  sql: Sql;
  bus: Bus;
  config: Config;
  log: FastifyBaseLogger;
  /** Whether the database answers (readiness, fail-fast 503s). */
  health: DatabaseHealth;
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
  /** Removes deleted projects' rows in the background; the server starts its sweep. */
  purger: ProjectPurger;
}

/** Who is calling: an API key, or a signed-in dashboard user. */
/** A dashboard user's role (extensions.md, "Dashboard members"), read with the session on every request. */
export type Role = 'owner' | 'member';

export type Actor = { kind: 'key'; keyId: string } | { kind: 'user'; userId: string; sessionId: string; role: Role };

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

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Bus } from './db/bus.ts';
import type { Db, Sql } from './db/client.ts';
import type { DatabaseHealth } from './db/health.ts';
import type { ApiKeys, Deliveries, EventIngest, HookTokens, Mail, MailQueueing, ProjectPurge, TagRollups } from './ports.ts';

/** Long-lived things a verb may use. Built once per process by buildApp's caller. */
export interface Services {
  sql: Sql;
  bus: Bus;
  config: Config;
  log: FastifyBaseLogger;
  /** Whether the database answers (readiness, fail-fast 503s). */
  health: DatabaseHealth;
  /** Group commit for event writes. */
  ingest: EventIngest;
  /** Group commit for incoming hooks: refuses events over the organization's monthly cap. */
  hookIngest: EventIngest;
  /** Hook URL token → enabled hook, cached; pauses and deletes evict it. */
  hooks: HookTokens;
  /** Bearer key → organization, cached; revocations evict it. */
  keys: ApiKeys;
  /** Outgoing webhooks and web push. Started by the server (tests start their own), never by a verb. */
  deliveries: Deliveries;
  /** Removes deleted projects' rows in the background; the server starts its sweep. */
  purger: ProjectPurge;
  /** Backfills tag keys newly rolled up for breakdowns, in the background. */
  tagRollups: TagRollups;
  /** Outgoing email through SMTP_URL; `configured` is false without it. */
  mailer: Mail;
  /** Mail to a person goes here (durable, retried); started by the server, never by a verb. */
  mailQueue: MailQueueing;
}

/** A dashboard user's role (extensions.md, "Dashboard members"), read with the session on every request. */
export type Role = 'owner' | 'member';

/**
 * Who is calling: an API key, a signed-in dashboard user, or the operator (the command line and
 * the tests, who run the verbs with the database's own rights and hold no credential).
 */
export type Actor = { kind: 'key'; keyId: string } | { kind: 'user'; userId: string; sessionId: string; role: Role } | { kind: 'operator' };

export const OPERATOR: Actor = { kind: 'operator' };

/** A request that has not shown a credential yet: first-run setup and signing in. */
type Visitor = { kind: 'visitor' };

export const VISITOR: Visitor = { kind: 'visitor' };

/** Every verb receives this: the organization scopes every query it makes. */
export interface Ctx {
  services: Services;
  organizationId: string;
  actor: Actor;
  /**
   * The projects this request may see, when its key is limited to some (http/routeScope.ts
   * refuses every other project before a verb runs); absent or null: every project. Only the
   * verbs of routes that list the organization's projects read it.
   */
  projects?: readonly string[] | null;
  /** The client's address as TRUST_PROXY decides (the audit log); absent for the command line. */
  ip?: string | null;
}

/**
 * For verbs that act above any one organization (making organizations and users, first-run setup,
 * signing in). `S` narrows the services for verbs that may be handed only a transaction to
 * write in (`{ sql: tx }`).
 */
export interface InstallationCtx<S extends { sql: Db } = Services> {
  services: S;
  actor: Actor | Visitor;
  /** The client's address as TRUST_PROXY decides (the audit log); absent for the command line. */
  ip?: string | null;
}

export interface VerbArgs<I> {
  ctx: Ctx;
  input: I;
}

/** Whether a listing shows this project to the request: every project, unless its key is limited to some. */
export function maySee(ctx: Pick<Ctx, 'projects'>, projectId: string): boolean {
  return !ctx.projects || ctx.projects.includes(projectId);
}

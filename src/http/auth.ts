import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, Ctx, Services } from '../context.ts';
import type { ApiKeys } from '../ports.ts';
import { Forbidden, Unauthorized } from '../lib/errors.ts';

/** Resolves a request without an Authorization header (a dashboard session), or null. */
export type SessionAuthenticator = (
  request: FastifyRequest,
) => Promise<{ organizationId: string; actor: Actor } | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated route before its handler runs. */
    ctx: Ctx;
  }
  interface FastifyContextConfig {
    /** Route answers without authentication (health, OpenAPI document, hook URLs, sign-in). */
    public?: boolean;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Every route under /api (and LogSnag's /v1) authenticates unless it opts out with `config: { public: true }`, so
 * a new route cannot forget to. A request that sends Authorization is judged on its key alone;
 * only requests without one may be resolved by a dashboard session.
 */
export function registerAuth(
  app: FastifyInstance,
  services: Services,
  keys: ApiKeys,
  sessions: { authenticate?: SessionAuthenticator },
): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions;
    const logSnagCompatible = route.url?.startsWith('/v1/') ?? false;
    if (route.config?.public || (!route.url?.startsWith('/api/') && !logSnagCompatible)) return;
    const header = request.headers.authorization;
    if (header !== undefined) {
      const key = BEARER.exec(header)?.[1];
      const principal = key ? await keys.authenticate(key) : null;
      if (!principal) throw new Unauthorized();
      request.ctx = {
        services,
        organizationId: principal.organizationId,
        actor: { kind: 'key', keyId: principal.keyId },
      };
      return;
    }
    // LogSnag's routes take its clients' bearer keys only (extensions.md), never a browser's cookie.
    if (logSnagCompatible) throw new Unauthorized();
    const session = await sessions.authenticate?.(request);
    if (!session) throw new Unauthorized();
    request.ctx = { services, ...session };
  });
}

/**
 * Owner-only actions (extensions.md, "Dashboard members": API keys, members, invitations): an
 * API key gets 403, so a leaked key cannot mint keys or let people in, and so does a member's
 * session. `action` names what was refused, e.g. "Managing API keys".
 */
export function requireOwner(ctx: Ctx, action: string): void {
  if (ctx.actor.kind !== 'user') throw new Forbidden(`${action} needs a dashboard session`);
  if (ctx.actor.role !== 'owner') throw new Forbidden(`${action} needs an owner of this organization; ask one to do it or to make you an owner`);
}

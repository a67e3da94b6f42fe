import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, Ctx, Services } from '../context.ts';
import type { ApiKeys, KeyPrincipal } from '../ports.ts';
import { Forbidden, Unauthorized } from '../lib/errors.ts';
import { refuseAccess, refuseOtherProjects, refuseOverBrowserLimit } from './routeScope.ts';
import { routeOf } from './routeOf.ts';

/** Resolves a request without an Authorization header (a dashboard session), or null. */
export type SessionAuthenticator = (request: FastifyRequest) => Promise<{ organizationId: string; actor: Actor } | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated route before its handler runs. */
    ctx: Ctx;
    /** The bearer key the request was judged on, or null (a session, a public route). */
    apiKey: KeyPrincipal | null;
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
 * only requests without one may be resolved by a dashboard session. A key's scope is enforced
 * here too, from the route's `config.scope` (http/routeScope.ts), never by the routes themselves.
 */
export function registerAuth(app: FastifyInstance, services: Services, keys: ApiKeys, sessions: { authenticate?: SessionAuthenticator }): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    const route = routeOf(request);
    const logSnagCompatible = route.url?.startsWith('/v1/') ?? false;
    if (route.config?.public || (!route.url?.startsWith('/api/') && !logSnagCompatible)) return;
    const header = request.headers.authorization;
    if (header !== undefined) {
      const key = BEARER.exec(header)?.[1];
      const principal = key ? await keys.authenticate(key) : null;
      if (!principal) throw new Unauthorized();
      const origin = request.headers.origin;
      if (principal.origins !== null && origin !== undefined && !principal.origins.includes(origin)) {
        throw new Forbidden(`This API key may not be used from ${origin}: add the origin to the key's origins`);
      }
      refuseAccess(principal, route.config?.scope);
      request.apiKey = principal;
      request.ctx = {
        services,
        organizationId: principal.organizationId,
        actor: { kind: 'key', keyId: principal.keyId },
        projects: principal.projects,
        ip: request.ip,
      };
      return;
    }
    // LogSnag's routes take its clients' bearer keys only (extensions.md), never a browser's cookie.
    if (logSnagCompatible) throw new Unauthorized();
    const session = await sessions.authenticate?.(request);
    if (!session) throw new Unauthorized();
    request.ctx = { services, ...session, ip: request.ip };
  });
  // After validation, so the project a body names is known: a key limited to some projects meets
  // every other project as another organization's (404), and a browser key's events are counted.
  // A callback hook: most requests come with a key limited to no project and no origin, and need
  // neither check nor a promise of their own.
  app.addHook('preHandler', (request, _reply, done) => {
    const key = request.apiKey;
    const scope = routeOf(request).config?.scope;
    if (!key || !scope || (key.projects === null && key.origins === null)) return done();
    refuseOtherProjects(request, key, scope)
      .then(() => refuseOverBrowserLimit(request, key, scope, (organizationId, address, events) => keys.takeBrowserEvent(organizationId, address, events)))
      .then(() => done(), done);
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

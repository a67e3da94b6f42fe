import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, Ctx, Services } from '../context.ts';
import type { KeyAuthenticator } from '../features/keys/keyAuthenticator.ts';
import { Unauthorized } from './errors.ts';

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
 * Every route under /api authenticates unless it opts out with `config: { public: true }`, so
 * a new route cannot forget to. A request that sends Authorization is judged on its key alone;
 * only requests without one may be resolved by a dashboard session.
 */
export function registerAuth(
  app: FastifyInstance,
  services: Services,
  keys: KeyAuthenticator,
  sessions: { authenticate?: SessionAuthenticator },
): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions;
    if (route.config?.public || !route.url?.startsWith('/api/')) return;
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
    const session = await sessions.authenticate?.(request);
    if (!session) throw new Unauthorized();
    request.ctx = { services, ...session };
  });
}

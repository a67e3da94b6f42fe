import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Services } from './context.ts';
import { KeyAuthenticator } from './features/keys/keyAuthenticator.ts';
import { featureRoutes } from './features/routes.ts';
import { type SessionAuthenticator, registerAuth } from './http/auth.ts';
import { registerErrorHandling } from './http/errorHandler.ts';

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface AppOptions {
  services: Services;
  /** Filled in by the sessions feature when the dashboard registers it. */
  sessions?: { authenticate?: SessionAuthenticator };
}

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** Largest JSON body of an ordinary request; import raises it for its own route. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the whole HTTP application. It never listens: server.ts and the tests do that. */
export async function buildApp({ services, sessions = {} }: AppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: services.log,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: true,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);

  // Every route, as registered: the shared security suite walks this list.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeTable.push({ method, url: route.url, public: Boolean(route.config?.public) });
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Eventlog API', version: '1.0.0', description: 'Multi-tenant event log' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key ev_...' } } },
      security: [{ bearer: [] }],
    },
  });

  const keys = new KeyAuthenticator(services.sql, services.bus, (err, msg) => services.log.error({ err }, msg));
  app.addHook('onClose', async () => keys.close());
  registerAuth(app, services, keys, sessions);

  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  for (const routes of featureRoutes) await app.register(routes);
  return app;
}

import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { Services } from './context.ts';
import { featureRoutes } from './features/routes.ts';
import { createSessionAuthenticator } from './features/sessions/sessionAuthenticator.ts';
import type { App, RouteEntry } from './http/app.ts';
import { type DashboardOptions, dashboard } from './http/dashboard.ts';
import { type SessionAuthenticator, registerAuth } from './http/auth.ts';
import { registerErrorHandling } from './http/errorHandler.ts';

export interface AppOptions {
  services: Services;
  /** Dashboard sessions; by default the sessions feature's cookie authenticator. */
  sessions?: { authenticate?: SessionAuthenticator };
  /** Where the built dashboard is served from (web/dist by default). */
  dashboard?: DashboardOptions;
}

export type { App } from './http/app.ts';

/** Largest JSON body of an ordinary request; import raises it for its own route. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the whole HTTP application. It never listens: server.ts and the tests do that. */
export async function buildApp({
  services,
  sessions = { authenticate: createSessionAuthenticator(services) },
  dashboard: dashboardOptions = {},
}: AppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: services.log,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: true,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);

  // `curl -X POST -H 'content-type: application/json'` with no body is a request without a body
  // (favorite, delete), not malformed JSON. Anything else goes through Fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  // Every route, as registered: the shared security suite walks this list.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        routeTable.push({ method, url: route.url, public: Boolean(route.config?.public), hidden: Boolean(route.schema?.hide) });
      }
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Eventlog API', version: '1.0.0', description: 'Multi-tenant event log' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key ev_...' },
          session: { type: 'apiKey', in: 'cookie', name: 'eventlog_session', description: 'Dashboard session; writes also need the x-csrf-token header' },
        },
      },
      // Every /api route takes either; the few that need a person say so on the route.
      security: [{ bearer: [] }, { session: [] }],
    },
  });

  app.decorate('services', services);
  // Before registerAuth: its hook reads the session cookie that this plugin's hook parses.
  await app.register(cookie);
  registerAuth(app, services, services.keys, sessions);

  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  for (const routes of featureRoutes) await app.register(routes);
  await app.register(dashboard, dashboardOptions);
  return app;
}

import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { Services } from './context.ts';
import { featureRoutes } from './features/routes.ts';
import { createSessionAuthenticator } from './features/sessions/sessionAuthenticator.ts';
import type { App, RouteEntry } from './http/app.ts';
import { type DashboardOptions, dashboard } from './http/dashboard.ts';
import { type SessionAuthenticator, registerAuth } from './http/auth.ts';
import { registerBrowserCors } from './http/browserCors.ts';
import { checkScopeDeclaration } from './http/routeScope.ts';
import { frameworkErrors, registerBoundary } from './http/boundary.ts';
import { registerDatabaseGate } from './http/databaseGate.ts';
import { DATABASE_UNAVAILABLE, registerErrorHandling } from './http/errorHandler.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerRequestLog } from './http/requestLog.ts';
import { registerRouteOf } from './http/routeOf.ts';
import { registerSecurityHeaders } from './http/securityHeaders.ts';
import { type UploadLimits, registerUploadLimits } from './http/uploads.ts';

interface AppOptions {
  services: Services;
  /** Dashboard sessions; by default the sessions feature's cookie authenticator. */
  sessions?: { authenticate?: SessionAuthenticator };
  /** Where the built dashboard is served from (web/dist by default). */
  dashboard?: DashboardOptions;
  /** Body time budgets and the bound on concurrent imports; the defaults are documented in the README. */
  uploadLimits?: Partial<UploadLimits>;
}

export type { App } from './http/app.ts';

/** Largest JSON body of an ordinary request; import raises it for its own route. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Connections (README, "Limits on requests"): the request line and headers must arrive within
 * HEADERS_TIMEOUT_MS of the connection opening, silent connections included; Node checks every
 * CONNECTION_CHECK_MS. Bodies have their own budgets (http/uploads.ts).
 */
const HEADERS_TIMEOUT_MS = 10_000;
const CONNECTION_CHECK_MS = 1000;
/**
 * Path parameters up to Node's whole header limit (16 KB): a 255-character user id is up to 3,060
 * characters once URL-encoded, and a longer one is the route's 404, never the router's 414.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/** A hop count is what Fastify itself turns a number into (its types only take the function). */
function fastifyTrustProxy(setting: false | number | string[]) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** Builds the whole HTTP application. It never listens: server.ts and the tests do that. */
export async function buildApp({
  services,
  sessions = { authenticate: createSessionAuthenticator(services) },
  dashboard: dashboardOptions = {},
  uploadLimits = {},
}: AppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: services.log,
    // Unique across processes sharing a database, unlike Fastify's per-process counter.
    genReqId: () => randomUUID(),
    // http/requestLog.ts logs one line per request, quieter for health probes and static files.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // The socket's address unless TRUST_PROXY names the proxies in front (the sign-in throttle keys on it).
    trustProxy: fastifyTrustProxy(services.config.trustProxy),
    return503OnClosing: true,
    frameworkErrors,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: CONNECTION_CHECK_MS, requestTimeout: 0 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerRouteOf(app);
  registerErrorHandling(app, (error) => services.health.reportFailure(error));
  registerDatabaseGate(app, services.health);
  registerMetrics(app, services);
  registerRequestLog(app);
  registerSecurityHeaders(app);

  registerBoundary(app);
  registerUploadLimits(app, uploadLimits);

  // Every route, as registered: the shared security suite walks this list.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    checkScopeDeclaration(route);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        routeTable.push({ method, url: route.url, public: Boolean(route.config?.public), hidden: Boolean(route.schema?.hide), scope: route.config?.scope });
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
  await registerBrowserCors(app);

  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    (await services.health.probe()) ? { ok: true } : reply.status(503).header('retry-after', '1').send({ error: DATABASE_UNAVAILABLE }),
  );
  app.get('/livez', { config: { public: true }, schema: { hide: true } }, () => ({ ok: true }));
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());

  for (const routes of featureRoutes) await app.register(routes);
  await app.register(dashboard, dashboardOptions);
  return app;
}

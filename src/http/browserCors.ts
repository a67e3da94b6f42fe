import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The headers a web page sends with a browser key (extensions.md, "Keys for browsers"). */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'];
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const NO_CORS: FastifyCorsOptions = { origin: false };

/** A registered route's path pattern as a test of a request path (`:name` is one segment). */
function pathMatcher(url: string): RegExp {
  const pattern = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/**
 * CORS for browser keys, answered by @fastify/cors configured per request: an actual request
 * carries `Access-Control-Allow-Origin` only when its key is a browser key listing the request's
 * origin (http/auth.ts has already refused an origin the key does not list). A preflight carries
 * no key, so it is answered for the routes an ingest key may use (those that declare `ingest`
 * access), for any origin: the request it permits is still judged on its key and origin
 * (decision 120). Every other preflight is an unknown route (404), and no other reply gets CORS
 * headers. Registered after registerAuth, so its hook sees `request.apiKey`.
 */
export async function registerBrowserCors(app: FastifyInstance): Promise<void> {
  const ingestRoutes: Array<{ method: string; path: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    if (route.config?.scope?.access !== 'ingest' || route.config.scope.browserKeys === 'refused') return;
    for (const method of [route.method].flat()) ingestRoutes.push({ method, path: pathMatcher(route.url) });
  });

  const allowing = (origin: string): FastifyCorsOptions => ({
    origin,
    methods: ['POST', 'PATCH'],
    allowedHeaders: ALLOWED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    strictPreflight: false,
  });

  const optionsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    if (origin === undefined) return NO_CORS;
    if (request.method === 'OPTIONS') {
      const method = String(request.headers['access-control-request-method'] ?? '').toUpperCase();
      const path = request.url.split('?')[0]!;
      return ingestRoutes.some((route) => route.method === method && route.path.test(path)) ? allowing(origin) : NO_CORS;
    }
    return request.apiKey?.origins?.includes(origin) ? allowing(origin) : NO_CORS;
  };

  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options?: FastifyCorsOptions) => void) => callback(null, optionsFor(request)),
  });
}

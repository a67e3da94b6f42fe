import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../context.ts';
import { httpDuration, registry, setQueueDepthSource } from '../metrics.ts';
import { Unauthorized } from '../lib/errors.ts';
import { routeOf } from './routeOf.ts';

const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Times every request by its route pattern (never the raw URL, whose ids would make a series per
 * record) and serves GET /metrics to `Authorization: Bearer <METRICS_TOKEN>`. Without the
 * setting the path does not exist. Scrapes are not timed: they would dominate the histogram.
 */
export function registerMetrics(app: FastifyInstance, services: Services): void {
  setQueueDepthSource(() => services.deliveries.queueDepth());

  app.addHook('onResponse', (request, reply, next) => {
    const route = routeOf(request).url;
    if (route !== METRICS_PATH) {
      httpDuration.observe({ method: request.method, route: route ?? 'unmatched', status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    }
    next();
  });

  // Optional chaining: scripts/client-types.ts builds the app with only a logger for services.
  const token = services.config.metricsToken;
  if (!token) return;
  const expected = digest(token);
  app.get(METRICS_PATH, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    // The scheme is case-insensitive (RFC 9110, 11.1), as it is on /api.
    const given = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      throw new Unauthorized('Missing or invalid metrics token');
    }
    const body = await registry.metrics();
    return reply.type(registry.contentType).send(body);
  });
}

import type { FastifyInstance } from 'fastify';
import { routeOf } from './routeOf.ts';

/** Health probes and the dashboard's files: useful while debugging, noise otherwise. */
const QUIET_ROUTES = new Set(['/healthz', '/', '/app', '/app/*']);

/**
 * One line per finished request, in place of Fastify's two (buildApp sets
 * disableRequestLogging): info for the API, debug for health probes and static files. The
 * request's logger carries its id; a 5xx's cause is logged by the error handler beside it.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, next) => {
    const route = routeOf(request).url;
    const quiet = route !== undefined && QUIET_ROUTES.has(route) && reply.statusCode < 500;
    const level = reply.statusCode >= 500 ? 'error' : quiet ? 'debug' : 'info';
    request.log[level]({ req: request, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
    next();
  });
}

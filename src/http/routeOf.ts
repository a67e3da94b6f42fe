import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];

declare module 'fastify' {
  interface FastifyRequest {
    /** What routeOf read, kept for the request's other hooks. */
    routeRead: RouteOptions | null;
  }
}

/** Declares the request's slot for routeOf; before any hook that calls it. */
export function registerRouteOf(app: FastifyInstance): void {
  app.decorateRequest('routeRead', null);
}

/**
 * The request's route options, read once per request: Fastify 5's `request.routeOptions` builds a
 * new object of a dozen fields at every read, and a request's hooks (authentication, uploads,
 * metrics, the log line) would read it six times or more.
 */
export function routeOf(request: FastifyRequest): RouteOptions {
  return (request.routeRead ??= request.routeOptions);
}

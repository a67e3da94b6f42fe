import type { FastifyInstance } from 'fastify';
import type { DatabaseHealth } from '../db/health.ts';
import { DATABASE_UNAVAILABLE } from './errorHandler.ts';

/** Paths that need the database (the API, hooks, LogSnag's /v1); the dashboard's static files and the health endpoints do not. */
const NEEDS_DATABASE = /^\/(api|hook|v1)(\/|$|\?)/;

/**
 * While the database does not answer, requests that need it are refused at once with 503 and
 * Retry-After instead of each waiting for a connection; /healthz says the same, /livez does not
 * depend on it. The background probe of DatabaseHealth lifts the gate within a second of recovery.
 */
export function registerDatabaseGate(app: FastifyInstance, health: DatabaseHealth): void {
  // A callback hook (no promise per request); answering means not calling `next`.
  app.addHook('onRequest', (request, reply, next) => {
    if (health.ready || !NEEDS_DATABASE.test(request.url)) return next();
    reply.status(503).header('retry-after', '1').send({ error: DATABASE_UNAVAILABLE });
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../lib/databaseErrors.ts';
import { type ErrorCode, ItemRefused, RateLimited, ServiceError } from '../lib/errors.ts';
import { REQUEST_STATEMENT_TIMEOUT_MS } from '../lib/limits.ts';

/** The one mapping from what went wrong to the HTTP status that says it. */
const STATUS: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  id_space_exhausted: 507,
};

export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly';

const TOO_SLOW = `The request took longer than ${REQUEST_STATEMENT_TIMEOUT_MS / 1000} s and was stopped; narrow it (a shorter search, fewer days or filters) and try again`;

/** PostgreSQL cancelled a statement at the request pool's `statement_timeout` (57014 is any cancel). */
function isStatementTimeout(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '57014' && typeof message === 'string' && message.includes('statement timeout');
}

/** Fastify's own client errors, by code, and the words a person should see for them. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but Content-Type is application/json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type; send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

/**
 * The one place errors become responses: always `{error}`. Client errors say what was wrong;
 * server errors say nothing of their cause, which goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance, onDatabaseUnavailable: (error: unknown) => void = () => {}): void {
  // The id of every log line of a request, handed to the client so a report can quote it.
  app.addHook('onRequest', (request, reply, next) => {
    reply.header('x-request-id', request.id);
    next();
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isStatementTimeout(error)) {
      // The database is fine; this request asked for too much. Said once, with the request's route.
      request.log.warn({ err: error, route: request.routeOptions.url }, 'a statement of the request ran into the time limit');
      return reply.status(503).send({ error: TOO_SLOW });
    }
    if (isDatabaseUnavailable(error)) {
      onDatabaseUnavailable(error);
      request.log.warn({ err: error }, 'the database is unavailable');
      return reply.status(503).header('retry-after', '1').send({ error: DATABASE_UNAVAILABLE });
    }
    if (error instanceof ServiceError) {
      if (error instanceof RateLimited && error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      // A batch's refused item is named by its place in the batch (extensions.md, "Batch ingestion").
      return reply.status(STATUS[error.code]).send(error instanceof ItemRefused ? { error: error.message, index: error.index } : { error: error.message });
    }
    if (error.validation) {
      return reply.status(400).send({ error: validationMessage(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = FRAMEWORK_MESSAGES[error.code] ?? (error instanceof SyntaxError ? 'Request body is not valid JSON' : error.message);
      return reply.status(status).send({ error: message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const path = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : '';
  if (first.keyword === 'required') {
    return `${where}.${(first.params as { missingProperty: string }).missingProperty} is required`;
  }
  if (first.keyword === 'additionalProperties') {
    return `${where}${path ? `.${path}` : ''} has an unknown field "${(first.params as { additionalProperty: string }).additionalProperty}"`;
  }
  return `${where}${path ? `.${path}` : ''} ${first.message ?? 'is invalid'}`;
}

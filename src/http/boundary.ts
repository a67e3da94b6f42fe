import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findBoundaryProblem, findJsonBoundaryProblem } from '../lib/boundaryText.ts';
import { InvalidInput, ItemRefused } from '../lib/errors.ts';
import { routeOf } from './routeOf.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body field holding a batch's items (POST /api/events/batch): a refusal names the
     * first item with a problem by its index (extensions.md, "Batch ingestion").
     */
    batchItems?: string;
  }
}

/**
 * Fastify's `frameworkErrors`: a path that is not valid percent-encoded UTF-8 (`%ED%A0%80`, `%C0%80`)
 * is refused before routing, and gets the same `{error}` shape as every other 400.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const bad = error.code === 'FST_ERR_BAD_URL';
  reply.status(bad ? 400 : (error.statusCode ?? 400)).send({ error: bad ? 'The URL path is not valid percent-encoded UTF-8' : error.message });
}

/** `{field} {message}` as a 400, for the one boundary rule of lib/boundaryText.ts. */
export function assertStorable(value: unknown, root: string): void {
  const problem = findBoundaryProblem(value, root);
  if (problem) throw new InvalidInput(`${problem.field} ${problem.message}`);
}

/**
 * Applies the boundary rule to every request of the application: path and query parameters as
 * soon as the route is known (before any hook or credential lookup can send them to PostgreSQL),
 * and JSON bodies as they are parsed. Routes that read raw bodies (incoming hooks) apply
 * assertStorable to what they derive from them.
 */
export function registerBoundary(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      assertStorable(request.params, 'params');
      assertStorable(request.query, 'querystring');
    } catch (error) {
      return done(error as Error);
    }
    done();
  });

  // `curl -X POST -H 'content-type: application/json'` with no body is a request without a body
  // (favorite, delete), not malformed JSON. Anything else goes through Fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    // The default JSON parser answers through this callback; the promise its type allows never comes.
    void parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      const problem = findJsonBoundaryProblem(parsed, text, 'body');
      if (problem)
        return done(boundaryRefusal(routeOf(request).config?.batchItems, parsed) ?? new InvalidInput(`${problem.field} ${problem.message}`), undefined);
      done(null, parsed);
    });
  });
}

/**
 * A batch's problem, named by its first item (in the items' order) that has one; undefined when
 * the route takes no batch or the problem lies outside its items. Walked only once a problem is
 * known to be in the body, so a good batch pays nothing for it.
 */
function boundaryRefusal(field: string | undefined, body: unknown): ItemRefused | undefined {
  const items = field && body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  if (!Array.isArray(items)) return undefined;
  for (const [index, item] of items.entries()) {
    const problem = findBoundaryProblem(item, `body.${field}[${index}]`, { depth: 3 });
    if (problem) return new ItemRefused(index, new InvalidInput(`${problem.field} ${problem.message}`));
  }
  return undefined;
}

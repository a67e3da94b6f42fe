import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findBoundaryProblem, findJsonBoundaryProblem } from '../lib/boundaryText.ts';
import { InvalidInput } from '../lib/errors.ts';

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
      if (problem) return done(new InvalidInput(`${problem.field} ${problem.message}`), undefined);
      done(null, parsed);
    });
  });
}

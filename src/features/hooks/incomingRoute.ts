import type { FastifyReply, FastifyRequest } from 'fastify';
import { VISITOR } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { Event } from '../events/schemas.ts';
import type { ActiveHook } from '../../ports.ts';
import { receiveHookEvent } from './receiveHookEvent.ts';
import { DELIVERY_NOTE_HEADER } from '../delivery/deliveryMarker.ts';
import { TokenParams } from './schemas.ts';

/** Largest hook body (spec Limits: 64 KB); a byte more is refused while it arrives. */
const MAX_HOOK_BODY_BYTES = 65_536;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on hook URLs before the body is read. */
    incomingHook: ActiveHook | null;
  }
}

/** Unknown, paused and deleted tokens all get exactly this: no body, nothing that tells them apart. */
function bareNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send();
}

/**
 * `{BASE_URL}/hook/<token>`, outside /api: the token is the only credential. Registered as its own
 * plugin so the raw-body parser below applies to this route alone and the JSON API keeps its own.
 */
export default function incomingHookRoute(app: App): void {
  const { services } = app;

  // Every Content-Type arrives as raw bytes; the verb decides between JSON and plain text. Fastify
  // refuses a Content-Length over the route's bodyLimit before reading, and stops reading as soon
  // as the running total passes it, so an oversized body is never buffered whole.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.decorateRequest('incomingHook', null);

  // The token is checked before the body is read: an unknown token costs no upload.
  app.addHook('onRequest', async (request, reply) => {
    const { token } = request.params as { token: string };
    request.incomingHook = await services.hooks.resolve(token);
    if (!request.incomingHook) return bareNotFound(reply);
  });

  const route = {
    bodyLimit: MAX_HOOK_BODY_BYTES,
    // GET creates events (for GET-only clients); a HEAD from a link checker must not.
    exposeHeadRoute: false,
    config: { public: true },
    schema: {
      tags: ['incoming hooks'],
      summary: 'Create an event through an incoming hook',
      description: 'No Authorization: the token is the credential. Unknown, paused or deleted tokens answer a bare 404 with no body.',
      security: [],
      params: TokenParams,
      response: { 201: Event, ...errors(400, 413, 429) },
    },
  };

  const handler = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const { event, note } = await receiveHookEvent({
      ctx: { services, actor: VISITOR },
      input: {
        hook: request.incomingHook as ActiveHook,
        request: { headers: request.headers, query: request.query as Record<string, unknown>, body: request.body as Buffer | undefined },
      },
    });
    if (note) reply.header(DELIVERY_NOTE_HEADER, note);
    return reply.status(201).send(event);
  };

  app.get('/hook/:token', route, handler);
  app.post('/hook/:token', route, handler);
  app.put('/hook/:token', route, handler);
}

import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './routeOf.ts';

/** An ordinary request body (at most 1 MiB) must have arrived whole within this. */
export const BODY_TIMEOUT_MS = 30_000;
/** A large upload (an import, up to 256 MiB) gets this long for its whole body. */
export const LARGE_BODY_TIMEOUT_MS = 10 * 60_000;
/** Any body that sends nothing at all for this long is cut off, whatever its budget. */
export const BODY_STALL_MS = 10_000;
/** Large uploads read at the same time by one process; more wait for a 503 and Retry-After. */
export const MAX_CONCURRENT_LARGE_UPLOADS = 2;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes large bodies (import): the long budget and the bound on concurrent uploads. */
    largeUpload?: boolean;
  }
}

const hasBody = (headers: Record<string, unknown>) => headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;

function timeoutError(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 408 });
}

/**
 * Slow clients cannot hold a connection and its buffered body forever: a body that does not
 * arrive within its budget, or stalls, is answered 408 `{error}` and the connection is closed.
 * Large uploads are also bounded in number per process, so memory stays bounded: each may
 * buffer up to its body limit.
 */
export interface UploadLimits {
  bodyTimeoutMs: number;
  largeBodyTimeoutMs: number;
  stallMs: number;
  maxLargeUploads: number;
}

export function registerUploadLimits(app: FastifyInstance, overrides: Partial<UploadLimits> = {}): void {
  const limits: UploadLimits = {
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    largeBodyTimeoutMs: LARGE_BODY_TIMEOUT_MS,
    stallMs: BODY_STALL_MS,
    maxLargeUploads: MAX_CONCURRENT_LARGE_UPLOADS,
    ...overrides,
  };
  let largeUploads = 0;

  // Callback hooks, not async ones: they run on every request and need no promise of their own.
  app.addHook('onRequest', (request, reply, next) => {
    if (!routeOf(request).config?.largeUpload || !hasBody(request.headers)) return next();
    if (largeUploads >= limits.maxLargeUploads) {
      // Answered here: `next` is not called.
      reply
        .status(503)
        .header('retry-after', '5')
        .header('connection', 'close')
        .send({ error: `At most ${limits.maxLargeUploads} imports are taken at a time; try again shortly` });
      return;
    }
    largeUploads++;
    let released = false;
    const release = () => {
      if (!released) largeUploads--;
      released = true;
    };
    // 'finish' too: an injected request's reply (app.inject) may never emit 'close', and an
    // import slot it kept would turn every later import into a 503.
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
    next();
  });

  app.addHook('preParsing', (request, reply, payload, next) => {
    // A body that has arrived whole cannot be slow. Most small bodies arrive in the same read as
    // their headers, but Node parses them only after this hook has run: one turn of the event
    // loop later they are whole and need no watching, which saves a stream, two timers and five
    // listeners per request (decision 160).
    if (!hasBody(request.headers) || request.raw.complete) return next(null, payload);
    setImmediate(() => next(null, request.raw.complete ? payload : watched(request, reply, payload)));
  });

  /** The body, cut off with a 408 when it misses its budget or stalls. */
  function watched(request: FastifyRequest, reply: FastifyReply, payload: Readable): Readable {
    const budget = routeOf(request).config?.largeUpload ? limits.largeBodyTimeoutMs : limits.bodyTimeoutMs;
    const body = new PassThrough();
    const cut = (error: Error) => {
      payload.unpipe(body);
      closeAfterReply(reply);
      body.destroy(error);
    };
    const deadline = setTimeout(() => cut(timeoutError(`The request body did not arrive within ${budget / 1000} s`)), budget);
    const stall = setTimeout(() => cut(timeoutError(`The request body stalled for ${limits.stallMs / 1000} s`)), limits.stallMs);
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(stall);
    };
    payload.on('data', () => stall.refresh());
    payload.once('end', done);
    payload.once('close', done);
    body.once('close', done);
    reply.raw.once('finish', done);
    // A request answered before its body was read (a 401, a 404) leaves no reader to hear the cut.
    body.on('error', () => {});
    payload.pipe(body);
    return body;
  }
}

/** The rest of a cut-off body is never read: the connection is closed once the reply is out. */
function closeAfterReply(reply: FastifyReply): void {
  reply.header('connection', 'close');
  reply.raw.once('finish', () => reply.raw.socket?.destroySoon?.());
}

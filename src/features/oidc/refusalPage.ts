import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../lib/errors.ts';

const STATUS: Partial<Record<ServiceError['code'], number>> = { invalid: 400, forbidden: 403, not_found: 404 };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A refused callback in a browser: the status the contract names, but a page that sends the
 * person on to the sign-in page, which shows the reason and the way on (decision 195). API
 * clients (no text/html in Accept) keep the {"error"} body every route answers with.
 */
export function sendRefusalPage(request: FastifyRequest, reply: FastifyReply, error: unknown): boolean {
  const status = error instanceof ServiceError ? STATUS[error.code] : undefined;
  if (!status || !(error instanceof ServiceError) || !String(request.headers.accept ?? '').includes('text/html')) return false;
  const target = escapeHtml(`/app/?signin_error=${encodeURIComponent(error.message)}`);
  void reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'")
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Not signed in</title></head>` +
        `<body><p>${escapeHtml(error.message)}.</p><p><a href="${target}">Back to the sign-in page</a></p></body></html>`,
    );
  return true;
}

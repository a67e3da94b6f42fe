import type { FastifyInstance } from 'fastify';

/**
 * What the dashboard's pages may load: only this origin's scripts, styles, workers and API; no
 * inline script or style element, no plugin, no framing, no <base>. React's style props and
 * chart.js set styles through the CSSOM, which a CSP leaves alone. test/browser/securityHeaders.test.ts
 * walks the pages under it and fails on any violation.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Every reply: a browser never guesses a type other than the one sent (a JSON body is never HTML). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, next) => {
    reply.header('x-content-type-options', 'nosniff');
    next();
  });
}

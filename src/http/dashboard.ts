import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DASHBOARD_CSP } from './securityHeaders.ts';

export interface DashboardOptions {
  /** The dashboard's build output; web/dist by default. */
  distDir?: string;
}

const DEFAULT_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Vite names these by content hash, so a given URL never changes: cache it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Anything without a hash in its name is revalidated on every load (ETag keeps that cheap). */
const REVALIDATE = 'no-cache';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Eventlog</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The dashboard is not built</h1>
<p>The API is running, but this installation has no dashboard build. Run <code>npm run build</code>
in the Eventlog directory, then reload this page.</p>
</body></html>
`;

/**
 * Serves the built single-page dashboard under /app/. These routes are outside /api, so the
 * authentication hook leaves them alone: the page itself is public, and everything it shows
 * comes from the authenticated JSON API.
 */
export async function dashboard(app: FastifyInstance, { distDir = DEFAULT_DIST_DIR }: DashboardOptions): Promise<void> {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  // Only the reply.sendFile helper: the routes below decide what is a file and what is the app.
  await app.register(fastifyStatic, { root, serve: false, suppressWarning: true, dotfiles: 'ignore' });

  const route = { config: { public: true }, schema: { hide: true } };

  app.get('/', route, async (_request, reply) => reply.redirect('/app/', 302));

  const serve = async (relative: string, reply: FastifyReply) => {
    // Checked per request, so a build made after the server started is picked up.
    if (!(await isFile(indexFile))) return notBuilt(reply);
    // The key-management page must not be framed by another site (clickjacking).
    reply.header('x-frame-options', 'DENY').header('content-security-policy', DASHBOARD_CSP);

    if (relative === 'sw.js') {
      // The service worker (app shell, offline page, web push) must see updates at once and may control all of /app/.
      if (!(await isFile(path.join(root, 'sw.js')))) return reply.callNotFound();
      reply.header('cache-control', REVALIDATE).header('service-worker-allowed', '/app/');
      return reply.sendFile('sw.js', root, { cacheControl: false });
    }

    const file = insideRoot(root, relative);
    if (file && relative !== '' && (await isFile(file))) {
      reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      return reply.sendFile(relative, root, { cacheControl: false });
    }
    // A missing hashed asset is a stale page asking for an old build: HTML would not help it.
    if (relative.startsWith('assets/')) return reply.callNotFound();

    // Every other path is a route of the single-page app.
    reply.header('cache-control', REVALIDATE);
    return reply.sendFile('index.html', root, { cacheControl: false });
  };

  // '/app' also answers '/app/' (ignoreTrailingSlash), which '/app/*' alone would not.
  app.get('/app', route, async (_request, reply) => serve('', reply));
  app.get<{ Params: { '*': string } }>('/app/*', route, async (request, reply) => serve(request.params['*'] ?? '', reply));
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply.status(503).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_PAGE);
}

/** The absolute path of a request path under root; null when it would leave root or name a dotfile. */
function insideRoot(root: string, relative: string): string | null {
  if (relative.includes('\0') || relative.split(/[\\/]/).some((segment) => segment.startsWith('.'))) return null;
  const resolved = path.resolve(root, relative);
  return resolved.startsWith(root + path.sep) ? resolved : null;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

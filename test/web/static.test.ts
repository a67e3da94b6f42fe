// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();
const INDEX = '<!doctype html><title>Eventlog</title><div id="root"></div>';
const ASSET = 'console.log("app");';

describe('the built dashboard under /app', () => {
  const state = {} as { dir: string; app: App };

  before(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-dist-'));
    fs.mkdirSync(path.join(state.dir, 'assets'));
    fs.writeFileSync(path.join(state.dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(state.dir, 'assets', 'index-3f9a1c.js'), ASSET);
    fs.writeFileSync(path.join(state.dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(state.dir, 'sw.js'), 'self.addEventListener("push", () => {});');
    fs.writeFileSync(path.join(state.dir, '.env'), 'SECRET=1');
    state.app = await buildApp({ services: t.services, dashboard: { distDir: state.dir } });
    await state.app.ready();
  });
  after(async () => {
    await state.app?.close();
    fs.rmSync(state.dir, { recursive: true, force: true });
  });

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => state.app.inject({ method, url });

  it('redirects / to /app/', async () => {
    const reply = await get('/');
    assert.equal(reply.statusCode, 302);
    assert.equal(reply.headers.location, '/app/');
  });

  it('serves index.html at /app/ and /app, revalidated on every load', async () => {
    for (const url of ['/app/', '/app']) {
      const reply = await get(url);
      assert.equal(reply.statusCode, 200, url);
      assert.equal(reply.body, INDEX);
      assert.match(String(reply.headers['content-type']), /^text\/html/);
      assert.equal(reply.headers['cache-control'], 'no-cache');
      assert.ok(reply.headers.etag, 'an ETag makes revalidation cheap');
    }
  });

  it('falls back to index.html for the routes of the single-page app', async () => {
    for (const url of ['/app/projects/abc123', '/app/api', '/app/p/x/settings?tab=hooks']) {
      const reply = await get(url);
      assert.equal(reply.statusCode, 200, url);
      assert.equal(reply.body, INDEX);
      assert.equal(reply.headers['cache-control'], 'no-cache');
    }
  });

  it('serves hashed assets as immutable for a year', async () => {
    const reply = await get('/app/assets/index-3f9a1c.js');
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.body, ASSET);
    assert.match(String(reply.headers['content-type']), /javascript/);
    assert.equal(reply.headers['cache-control'], 'public, max-age=31536000, immutable');
    const head = await get('/app/assets/index-3f9a1c.js', 'HEAD');
    assert.equal(head.statusCode, 200);
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const reply = await get('/app/assets/index-old.js');
    assert.equal(reply.statusCode, 404);
  });

  it('serves other files of the build, revalidated', async () => {
    const reply = await get('/app/favicon.svg');
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.headers['cache-control'], 'no-cache');
  });

  it('serves the service worker uncached and allowed to control /app/', async () => {
    const reply = await get('/app/sw.js');
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.headers['cache-control'], 'no-cache');
    assert.equal(reply.headers['service-worker-allowed'], '/app/');
    assert.match(String(reply.headers['content-type']), /javascript/);
  });

  it('never serves files outside the build, nor dotfiles', async () => {
    for (const url of ['/app/../package.json', '/app/%2e%2e/%2e%2e/package.json', '/app/assets/..%2f..%2fpackage.json', '/app/.env']) {
      const reply = await get(url);
      assert.ok(!reply.body.includes('"dependencies"'), url);
      assert.ok(!reply.body.includes('SECRET'), url);
    }
  });

  it('leaves /api to the API: unknown API routes are JSON 404s', async () => {
    const reply = await get('/api/nothing-here');
    assert.equal(reply.statusCode, 404);
    assert.deepEqual(Object.keys(reply.json()), ['error']);
  });

  it('marks the dashboard routes public and hides them from the OpenAPI document', async () => {
    const routes = state.app.routeTable.filter((r) => r.url === '/' || r.url.startsWith('/app'));
    assert.ok(routes.length >= 2);
    for (const route of routes) assert.equal(route.public, true, route.url);
    const doc = (await state.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    assert.ok(!Object.keys(doc.paths).some((p) => p === '/' || p.startsWith('/app')));
  });
});

describe('without a dashboard build', () => {
  const state = {} as { app: App };

  before(async () => {
    state.app = await buildApp({ services: t.services, dashboard: { distDir: path.join(os.tmpdir(), 'eventlog-no-such-dist') } });
    await state.app.ready();
  });
  after(async () => state.app?.close());

  it('still starts, and /app/* says how to build the dashboard', async () => {
    for (const url of ['/app/', '/app/projects/x', '/app/assets/a.js']) {
      const reply = await state.app.inject({ method: 'GET', url });
      assert.equal(reply.statusCode, 503, url);
      assert.match(String(reply.headers['content-type']), /^text\/html/);
      assert.match(reply.body, /npm run build/);
    }
    assert.equal((await state.app.inject({ method: 'GET', url: '/' })).statusCode, 302);
    assert.equal((await state.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });
});

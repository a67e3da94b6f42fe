import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

/** extensions.md, "Keys for browsers": CORS for exactly the key's origins, and 60 events a minute per address. */
const t = useTestApp();

const SHOP = 'https://shop.example.com';

async function browserKey(org: TestOrg, origins: string[] | null = [SHOP]): Promise<string> {
  return (await createKey({ ctx: org.ctx, input: { access: 'ingest', origins } })).key;
}

const preflight = (url: string, origin: string, method = 'POST') =>
  t.request({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
  });

describe('CORS for browser keys', () => {
  it('answers the preflight of the routes an ingest key may use', async () => {
    for (const [url, method] of [
      ['/api/events', 'POST'],
      ['/api/identify', 'POST'],
      ['/api/insight', 'PATCH'],
      ['/v1/log', 'POST'],
    ] as const) {
      const reply = await preflight(url, SHOP, method);
      assert.equal(reply.status, 204, `${method} ${url}`);
      assert.equal(reply.headers['access-control-allow-origin'], SHOP);
      const allowed = String(reply.headers['access-control-allow-headers'])
        .toLowerCase()
        .split(/\s*,\s*/);
      for (const header of ['authorization', 'content-type', 'idempotency-key']) assert.ok(allowed.includes(header), `${header} in ${allowed.join(',')}`);
      assert.match(String(reply.headers['access-control-allow-methods']), new RegExp(method));
    }
  });

  it('answers no preflight for routes an ingest key may not use', async () => {
    for (const [url, method] of [
      ['/api/projects', 'POST'],
      ['/api/events', 'GET'],
      ['/api/export', 'GET'],
      ['/api/keys', 'POST'],
    ] as const) {
      const reply = await preflight(url, SHOP, method);
      assert.equal(reply.headers['access-control-allow-origin'], undefined, `${method} ${url}`);
      assert.ok(reply.status >= 400, `${method} ${url}: ${reply.status}`);
    }
  });

  it("carries Access-Control-Allow-Origin for the key's origins, 403 for another origin", async () => {
    const org = await t.org();
    const project = await org.project();
    const key = await browserKey(org, [SHOP, 'http://localhost:5173']);
    const send = (origin: string | undefined) =>
      t.request({
        method: 'POST',
        url: '/api/events',
        body: { project, category: 'web', title: 'clicked' },
        headers: { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) },
      });

    const allowed = await send(SHOP);
    assert.equal(allowed.status, 201);
    assert.equal(allowed.headers['access-control-allow-origin'], SHOP);
    assert.equal((await send('http://localhost:5173')).headers['access-control-allow-origin'], 'http://localhost:5173');

    const refused = await send('https://evil.example.com');
    assert.equal(refused.status, 403);
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);

    // A server sends no Origin: the key still works, without CORS headers.
    const server = await send(undefined);
    assert.equal(server.status, 201);
    assert.equal(server.headers['access-control-allow-origin'], undefined);
    const listed = await org.get(`/api/events?project=${project}`);
    assert.equal(listed.body.events.length, 3, 'the refused request wrote nothing');
  });

  it('gives no other key CORS headers', async () => {
    const org = await t.org();
    const project = await org.project();
    const ingestOnly = await browserKey(org, null);
    for (const key of [org.key, ingestOnly]) {
      const reply = await t.request({
        method: 'POST',
        url: '/api/events',
        body: { project, category: 'web', title: 't' },
        headers: { authorization: `Bearer ${key}`, origin: SHOP },
      });
      assert.equal(reply.status, 201);
      assert.equal(reply.headers['access-control-allow-origin'], undefined);
    }
  });
});

describe('the rate limit of browser keys', () => {
  it('writes at most 60 events a minute per address, then answers 429 with Retry-After', async () => {
    const org = await t.org();
    const project = await org.project();
    const key = await browserKey(org);
    const send = (address: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/events',
        remoteAddress: address,
        headers: { authorization: `Bearer ${key}`, origin: SHOP, 'content-type': 'application/json' },
        payload: JSON.stringify({ project, category: 'web', title: 'view' }),
      });
    // A minute boundary in the middle would start a new window: begin early in one.
    const intoMinute = Date.now() % 60_000;
    // Time itself: the rate window of the next minute.
    if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 50);
    const statuses = await Promise.all(Array.from({ length: 60 }, () => send('198.51.100.7').then((r) => r.statusCode)));
    assert.deepEqual([...new Set(statuses)], [201]);
    const over = await send('198.51.100.7');
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1 && Number(over.headers['retry-after']) <= 60, String(over.headers['retry-after']));
    assert.equal(over.headers['access-control-allow-origin'], SHOP, 'the page can read the refusal');
    assert.equal((await send('198.51.100.8')).statusCode, 201, 'another address has its own count');
    // Identify calls count toward the same limit (decision 200).
    const identify = await t.app.inject({
      method: 'POST',
      url: '/api/identify',
      remoteAddress: '198.51.100.7',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ project, user_id: 'u', properties: {} }),
    });
    assert.equal(identify.statusCode, 429);
    const listed = await org.get(`/api/events?project=${project}&limit=100`);
    assert.equal(listed.body.events.length, 61);
    // Keys without origins are not limited.
    for (let i = 0; i < 3; i++) assert.equal((await org.post('/api/events', { project, category: 'web', title: 'server' })).status, 201);
  });
});

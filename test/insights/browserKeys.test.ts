// What a browser key (an ingest key with origins, published in web pages) may do with insights
// and identify (decision 200): add to a counter without reading it back, never set one, and
// identify within the per-address limit its events have.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

const t = useTestApp();
const SHOP = 'https://shop.example.com';

async function browserKey(org: TestOrg): Promise<string> {
  return (await createKey({ ctx: org.ctx, input: { access: 'ingest', origins: [SHOP] } })).key;
}

function send(key: string, method: 'POST' | 'PATCH', url: string, body: unknown, remoteAddress = '203.0.113.9') {
  return t.app.inject({
    method,
    url,
    remoteAddress,
    headers: { authorization: `Bearer ${key}`, origin: SHOP, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe('browser keys and insight counters', () => {
  it('may $inc a counter but is not told its value; may not set one (403, nothing changes)', async () => {
    const org = await t.org();
    const project = await org.project();
    const key = await browserKey(org);
    const added = await send(key, 'PATCH', '/api/insight', { project, title: 'Visits', value: { $inc: 1 } });
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json(), { ok: true });
    const addedByLogSnag = await send(key, 'PATCH', '/v1/insight', { project, title: 'Visits', value: { $inc: 2 } });
    assert.equal(addedByLogSnag.statusCode, 200, addedByLogSnag.body);
    assert.deepEqual(addedByLogSnag.json(), { ok: true });

    for (const [url, body] of [
      ['/api/insight', { project, title: 'Visits', value: 1_000_000 }],
      ['/v1/insight', { project, title: 'Visits', value: 1_000_000 }],
    ] as const) {
      const refused = await send(key, 'POST', url, body);
      assert.equal(refused.statusCode, 403, `${url}: ${refused.body}`);
      assert.match(refused.json().error, /only add to insight counters/);
    }
    // A server's key is still told the new value, and sees that the refused sets changed nothing.
    const reply = await t.request({
      method: 'PATCH',
      url: '/api/insight',
      body: { project, title: 'Visits', value: { $inc: 1 } },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.deepEqual(reply.body, { ok: true, value: '4' });
  });

  it('no CORS preflight for setting an insight; the increment keeps its preflight', async () => {
    const preflight = (method: string) =>
      t.request({
        method: 'OPTIONS',
        url: '/api/insight',
        headers: { origin: SHOP, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
      });
    const patch = await preflight('PATCH');
    assert.equal(patch.status, 204);
    assert.equal(patch.headers['access-control-allow-origin'], SHOP);
    const post = await preflight('POST');
    assert.equal(post.headers['access-control-allow-origin'], undefined);
  });
});

describe('browser keys and identify', () => {
  it('identify calls count toward the per-address limit with events: 60 a minute, then 429', async () => {
    const org = await t.org();
    const project = await org.project();
    const key = await browserKey(org);
    // A minute boundary in the middle would start a new window: begin early in one.
    const intoMinute = Date.now() % 60_000;
    // Time itself: the rate window of the next minute.
    if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 50);
    const address = '203.0.113.40';
    const identified = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(key, 'POST', '/api/identify', { project, user_id: `u${i}`, properties: {} }, address)),
    );
    assert.deepEqual([...new Set(identified.map((r) => r.statusCode))], [200]);
    const logSnag = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(key, 'POST', '/v1/identify', { project, user_id: `v${i}`, properties: {} }, address)),
    );
    assert.deepEqual([...new Set(logSnag.map((r) => r.statusCode))], [200]);
    const over = await send(key, 'POST', '/api/identify', { project, user_id: 'late', properties: {} }, address);
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    const event = await send(key, 'POST', '/api/events', { project, category: 'web', title: 'view' }, address);
    assert.equal(event.statusCode, 429, 'events share the count');
    assert.equal(
      (await send(key, 'POST', '/api/identify', { project, user_id: 'other', properties: {} }, '203.0.113.41')).statusCode,
      200,
      'another address has its own',
    );
    // A server's key is not limited.
    for (let i = 0; i < 3; i++) assert.equal((await org.post('/api/identify', { project, user_id: `s${i}`, properties: {} })).status, 200);
  });
});

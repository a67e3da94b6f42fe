import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATA_DEPTH_LIMIT, jsonTextMayNestTooDeep } from '../../src/lib/boundaryText.ts';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

/** JSON text of `depth` nested containers; JSON.stringify itself cannot write 10,000 levels. */
function deepText(depth: number): string {
  return '{"a":['.repeat(Math.ceil(depth / 2)) + '"leaf"' + ']}'.repeat(Math.ceil(depth / 2));
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A 400 `{error}` whose message names `field`. */
function assertRefused(reply: Reply, field: string | RegExp) {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  assert.deepEqual(Object.keys(reply.body), ['error']);
  assert.match(reply.body.error, typeof field === 'string' ? new RegExp(field.replace(/[.[\]]/g, '\\$&')) : field);
}

async function eventCount(org: TestOrg): Promise<number> {
  const [row] = await t.services.sql`SELECT count(*)::int AS n FROM events WHERE organization_id = ${org.id}`;
  return row!.n as number;
}

async function hookOf(org: TestOrg, project: string): Promise<string> {
  const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'hook', category: 'inbox' })).body;
  return new URL(hook.url).pathname;
}

describe('the boundary rule: NUL and lone surrogates are a 400 naming the field', () => {
  it('refuses them in JSON bodies, at any depth, in values and in keys', async () => {
    const org = await t.org();
    const project = await org.project();
    assertRefused(await org.post('/api/events', { project, category: 'c', title: 'a\u0000b' }), 'body.title');
    assertRefused(await org.post('/api/events', { project, category: 'c', title: '\ud800' }), 'body.title');
    assertRefused(await org.post('/api/events', { project, category: 'c', title: 'x\udc00y' }), 'body.title');
    assertRefused(
      await org.post('/api/events', { project, category: 'c', title: 't', tags: { k: 'v\u0000' } }),
      /body\.tags must not contain NUL characters \(at k\)/,
    );
    assertRefused(
      await org.post('/api/events', { project, category: 'c', title: 't', metadata: [{ deep: ['\ud83d'] }] }),
      /body\.metadata must not contain lone UTF-16 surrogates \(at \[0\]\.deep\[0\]\)/,
    );
    assertRefused(await org.post('/api/events', { project, category: 'c', title: 't', metadata: { 'k\u0000': 1 } }), /body\.metadata has a key/);
    assertRefused(await org.post('/api/projects', { name: 'p\ud800' }), 'body.name');
    assertRefused(await org.post('/api/insight', { project, title: 'MRR', value: '\udfff' }), 'body.value');
    // A well-formed pair is a character like any other.
    assert.equal((await org.post('/api/events', { project, category: 'c', title: '😀 ok' })).status, 201);
    assert.equal(await eventCount(org), 1);
  });

  it('refuses them in path parameters and query strings before any lookup', async () => {
    const org = await t.org();
    const project = await org.project();
    assertRefused(await org.post('/api/events/a%00b/favorite'), 'params.eventId');
    assertRefused(await org.get('/api/projects/a%00b/hooks'), 'params.projectId');
    assertRefused(await org.get('/api/destinations/%00/deliveries'), 'params.destinationId');
    assertRefused(await org.get(`/api/events?project=${project}%00`), 'querystring.project');
    assertRefused(await org.get(`/api/events?project=${project}&search=%00`), 'querystring.search');
    // A percent-encoded lone surrogate is not valid UTF-8: it stays the literal text it was sent as.
    assert.equal((await org.get(`/api/events?project=${project}&category=%ED%A0%80`)).status, 200);
    assertRefused(await org.post('/api/keys/%00/revoke'), 'params.keyId');
    const hook = await hookOf(org, project);
    assertRefused(await t.request({ method: 'GET', url: `${hook}%00` }), 'params.token');
  });

  it('refuses them in incoming hooks, from the body, the query string and the headers alike', async () => {
    const org = await t.org();
    const project = await org.project();
    const hook = await hookOf(org, project);
    const send = (url: string, payload: string, headers: Record<string, string> = {}) =>
      t.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });
    assertRefused(await send(hook, JSON.stringify({ title: '\u0000' })), 'body.title');
    assertRefused(await send(hook, '{"title":"ok","metadata":{"a":"\\ud800"}}'), /body\.metadata must not .* \(at a\)/);
    assertRefused(await send(`${hook}?title=%00`, ''), 'title');
    assertRefused(await send(`${hook}?title=ok&metadata=${encodeURIComponent('{"a":"\\u0000"}')}`, ''), 'metadata.a must not contain NUL');
    assertRefused(await send(hook, `{"title":"ok","tags":${deepText(10_000)}}`), /body\.tags/);
    assert.equal(await eventCount(org), 0);
  });

  it('refuses them in import rows, naming the row', async () => {
    const org = await t.org();
    const row = { category: 'c', title: 't', created_at: 1700000000 };
    const doc = (events: unknown[]) => ({ version: 1, projects: [{ name: 'P', events }] });
    assertRefused(await org.post('/api/import', doc([row, { ...row, title: 'a\u0000' }])), 'body.projects[0].events[1].title');
    assertRefused(await org.post('/api/import', doc([{ ...row, tags: { t: '\udbff' } }])), /body\.projects\[0\]\.events\[0\]\.tags must not contain lone/);
    const deepRow = `{"category":"c","title":"t","created_at":1700000000,"metadata":${deepText(10_000)}}`;
    const payload = `{"version":1,"projects":[{"name":"P","events":[${deepRow}]}]}`;
    const headers = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' };
    assertRefused(await t.request({ method: 'POST', url: '/api/import', payload, headers }), /nested deeper/);
    assert.equal(await eventCount(org), 0);
  });
});

describe('the nesting limit', () => {
  it(`takes tags and metadata up to ${DATA_DEPTH_LIMIT} levels and refuses one more`, async () => {
    const org = await t.org();
    const project = await org.project();
    const atLimit = await org.post('/api/events', { project, category: 'c', title: 't', metadata: nested(DATA_DEPTH_LIMIT) });
    assert.equal(atLimit.status, 201, JSON.stringify(atLimit.body));
    assertRefused(
      await org.post('/api/events', { project, category: 'c', title: 't', metadata: nested(DATA_DEPTH_LIMIT + 1) }),
      /body\.metadata.* nested deeper than 64 levels/,
    );
    assertRefused(await org.post('/api/events', { project, category: 'c', title: 't', tags: { a: nested(DATA_DEPTH_LIMIT) } }), /nested deeper than 64 levels/);
  });

  it('skips the walk only for bodies with too few brackets to break a limit', () => {
    const withBrackets = (n: number) => `{"metadata":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    assert.equal(jsonTextMayNestTooDeep(withBrackets(DATA_DEPTH_LIMIT)), false);
    assert.equal(jsonTextMayNestTooDeep(withBrackets(DATA_DEPTH_LIMIT + 1)), true);
    // Brackets inside strings count too: a false alarm costs a walk, never a missed refusal.
    assert.equal(jsonTextMayNestTooDeep(JSON.stringify({ title: '{['.repeat(DATA_DEPTH_LIMIT) })), true);
    assert.equal(jsonTextMayNestTooDeep('{"title":"plain"}'), false);
    // Deeper in its body (an import row), a value has fewer levels left before the body's limit.
    assert.equal(jsonTextMayNestTooDeep(withBrackets(DATA_DEPTH_LIMIT), 5), false);
    assert.equal(jsonTextMayNestTooDeep(withBrackets(DATA_DEPTH_LIMIT), 10), true);
  });

  it('refuses a body nested 10,000 deep with a 400, never a stack overflow', async () => {
    const org = await t.org();
    const project = await org.project();
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const payload = `{"project":"${project}","category":"c","title":"t","metadata":${deep}}`;
    const reply = await t.request({
      method: 'POST',
      url: '/api/events',
      payload,
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assertRefused(reply, /nested deeper/);
    const projectPayload = `{"name":${deepText(10_000)}}`;
    const projectHeaders = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' };
    assertRefused(await t.request({ method: 'POST', url: '/api/projects', payload: projectPayload, headers: projectHeaders }), /nested deeper/);
    assert.equal(await eventCount(org), 0);
  });
});

describe('HEAD', () => {
  it('answers at once on every GET route, the live stream included, with no body', async () => {
    const org = await t.org();
    const project = await org.project();
    const gets = t.app.routeTable.filter((route) => route.method === 'GET' && !route.url.includes(':') && !route.url.includes('*'));
    assert.ok(gets.length > 5);
    for (const route of gets) {
      const url = route.url === '/api/live' ? `/api/live?project=${project}` : route.url;
      const reply = await Promise.race([
        t.request({ method: 'HEAD', url, headers: { authorization: `Bearer ${org.key}` } }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`HEAD ${url} did not answer`)), 5000)),
      ]);
      assert.ok(reply.status < 500, `HEAD ${url}: ${reply.status}`);
      assert.equal(reply.raw.body, '', `HEAD ${url} has no body`);
    }
    const live = await t.request({ method: 'HEAD', url: `/api/live?project=${project}`, headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(live.status, 200);
    assert.match(String(live.headers['content-type']), /text\/event-stream/);
  });
});

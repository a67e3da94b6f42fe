import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';

/** extensions.md, "Scoped API keys": what a key with a scope may and may not do. */
const t = useTestApp();

type Scope = { projects?: string[] | null; access?: 'full' | 'ingest' | 'read'; origins?: string[] | null };

async function keyOf(
  org: TestOrg,
  scope: Scope,
): Promise<(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply>> {
  const { key } = await createKey({ ctx: org.ctx, input: scope });
  return (method, url, body, headers = {}) =>
    t.request({ method, url, ...(body === undefined ? {} : { body }), headers: { authorization: `Bearer ${key}`, ...headers } });
}

describe('creating scoped keys', () => {
  it('takes projects, access and origins, and shows them in the reply and the list', async () => {
    const org = await t.org();
    const [a, b] = [await org.project('a'), await org.project('b')];
    const owner = await signInAs(t, org);
    const made = await owner.post('/api/keys', {
      name: 'web shop',
      projects: [a, b],
      access: 'ingest',
      origins: ['https://shop.example.com', 'http://localhost:5173'],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.projects, [a, b]);
    assert.equal(made.body.access, 'ingest');
    assert.deepEqual(made.body.origins, ['https://shop.example.com', 'http://localhost:5173']);
    const listed = (await owner.get('/api/keys')).body.find((k: { id: string }) => k.id === made.body.id);
    assert.deepEqual(
      { projects: listed.projects, access: listed.access, origins: listed.origins },
      { projects: [a, b], access: 'ingest', origins: ['https://shop.example.com', 'http://localhost:5173'] },
    );

    const plain = await owner.post('/api/keys', {});
    assert.deepEqual(
      { projects: plain.body.projects, access: plain.body.access, origins: plain.body.origins },
      { projects: null, access: 'full', origins: null },
    );
  });

  it("refuses a bad scope with 400 and another organization's project with 404, making no key", async () => {
    const org = await t.org();
    const other = await t.org();
    const theirs = await other.project();
    const mine = await org.project();
    const owner = await signInAs(t, org);
    const before = (await owner.get('/api/keys')).body.length;
    for (const body of [
      { projects: [] },
      { access: 'admin' },
      { access: 'full', origins: ['https://a.example'] },
      { access: 'read', origins: ['https://a.example'] },
      { access: 'ingest', origins: [] },
      { access: 'ingest', origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example`) },
      { access: 'ingest', origins: ['https://a.example/path'] },
      { access: 'ingest', origins: ['a.example'] },
      { access: 'ingest', origins: ['ftp://a.example'] },
      { access: 'ingest', origins: ['https://user@a.example'] },
      { projects: 'all' },
    ]) {
      const reply = await owner.post('/api/keys', body);
      assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.status} ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
    }
    for (const projects of [[theirs], [mine, theirs], ['nope']]) {
      const reply = await owner.post('/api/keys', { projects });
      assert.equal(reply.status, 404, JSON.stringify(reply.body));
    }
    assert.equal((await owner.get('/api/keys')).body.length, before);
  });
});

describe('a key limited to some projects', () => {
  it("meets every other project as another organization's, and lists and exports its own only", async () => {
    const org = await t.org();
    const [mine, theirs] = [await org.project('mine'), await org.project('theirs')];
    const event = (await org.post('/api/events', { project: theirs, category: 'c', title: 'hidden' })).body.id;
    const hook = (await org.post(`/api/projects/${theirs}/hooks`, { name: 'h', category: 'c' })).body.id;
    const call = await keyOf(org, { projects: [mine] });

    assert.equal((await call('POST', '/api/events', { project: mine, category: 'c', title: 'ok' })).status, 201);
    for (const [method, url, body] of [
      ['POST', '/api/events', { project: theirs, category: 'c', title: 'no' }],
      ['GET', `/api/events?project=${theirs}`],
      ['GET', `/api/events/${event}`],
      ['POST', `/api/events/${event}/delete`],
      ['GET', `/api/projects/${theirs}/hooks`],
      ['POST', `/api/hooks/${hook}/pause`],
      ['PATCH', `/api/projects/${theirs}`, { name: 'renamed' }],
      ['POST', '/v1/log', { project: 'theirs', channel: 'c', event: 'by name' }],
      ['GET', '/api/events'],
    ] as const) {
      const reply = await call(method, url, body);
      assert.equal(reply.status, 404, `${method} ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.equal((await org.get(`/api/events/${event}`)).body.title, 'hidden', 'nothing was deleted');

    assert.deepEqual(
      (await call('GET', '/api/projects')).body.map((p: { id: string }) => p.id),
      [mine],
    );
    const exported = await call('GET', '/api/export');
    assert.equal(exported.status, 200);
    assert.deepEqual(
      JSON.parse(exported.raw.body).projects.map((p: { id: string }) => p.id),
      [mine],
    );
    for (const [url, body] of [
      ['/api/projects', { name: 'new' }],
      ['/api/import', { version: 1, projects: [] }],
    ] as const) {
      const reply = await call('POST', url, body);
      assert.equal(reply.status, 403, `${url}: ${reply.status}`);
    }
  });
});

describe('ingest and read keys', () => {
  it('an ingest key may only create events, users and insights', async () => {
    const org = await t.org();
    const project = await org.project();
    const call = await keyOf(org, { access: 'ingest' });
    assert.equal((await call('POST', '/api/events', { project, category: 'c', title: 't' })).status, 201);
    assert.equal((await call('POST', '/api/identify', { project, user_id: 'u1', properties: { a: 1 } })).status, 200);
    assert.equal((await call('POST', '/api/insight', { project, title: 'i', value: 1 })).status, 200);
    assert.equal((await call('PATCH', '/api/insight', { project, title: 'i', value: { $inc: 1 } })).status, 200);
    assert.equal((await call('POST', '/v1/log', { project, channel: 'c', event: 'e' })).status, 200);
    for (const [method, url, body] of [
      ['GET', `/api/events?project=${project}`],
      ['GET', '/api/projects'],
      ['POST', '/api/projects', { name: 'x' }],
      ['GET', '/api/export'],
    ] as const) {
      const reply = await call(method, url, body);
      assert.equal(reply.status, 403, `${method} ${url}: ${reply.status}`);
    }
  });

  it('a read key may only use GET routes', async () => {
    const org = await t.org();
    const project = await org.project();
    const call = await keyOf(org, { access: 'read' });
    assert.equal((await call('GET', `/api/events?project=${project}`)).status, 200);
    assert.equal((await call('GET', '/api/projects')).status, 200);
    assert.equal((await call('GET', '/api/export')).status, 200);
    const refused = await call('POST', '/api/events', { project, category: 'c', title: 't' });
    assert.equal(refused.status, 403);
    assert.equal((await call('POST', '/api/projects', { name: 'x' })).status, 403);
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events.length, 0, 'nothing was written');
  });
});

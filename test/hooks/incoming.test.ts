import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { Bus } from '../../src/db/bus.ts';
import { createClient } from '../../src/db/client.ts';
import { HookResolver } from '../../src/features/hooks/hookResolver.ts';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

const t = useTestApp();

interface Hooked {
  org: TestOrg;
  project: string;
  hook: { id: string; url: string };
  path: string;
}

async function setup(options: { monthlyEventCap?: number | null; category?: string } = {}): Promise<Hooked> {
  const org = await t.org({ monthlyEventCap: options.monthlyEventCap ?? null });
  const project = await org.project();
  const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'hook', category: options.category ?? 'inbox' })).body;
  return { org, project, hook, path: new URL(hook.url).pathname };
}

function send(path: string, options: { method?: 'GET' | 'POST' | 'PUT'; body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Reply> {
  return t.request({ method: options.method ?? 'POST', url: path, payload: options.body, headers: options.headers ?? {} });
}

async function events(org: TestOrg, project: string) {
  return (await org.get(`/api/events?project=${project}&limit=100`)).body.events as Array<Record<string, unknown>>;
}

async function usage(organizationId: string): Promise<number> {
  const [row] = await t.services.sql<{ events: number }[]>`SELECT events FROM organization_usage WHERE organization_id = ${organizationId}`;
  return row?.events ?? 0;
}

describe('incoming hook: creating events', () => {
  it('a plain-text body: first line title, the rest description, the default category', async () => {
    const { org, project, path } = await setup();
    const reply = await send(path, { body: 'Deploy finished\nVersion 1.2.3\nall green\n', headers: { 'content-type': 'text/plain' } });
    assert.equal(reply.status, 201);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const [stored] = await events(org, project);
    assert.deepEqual(stored, reply.body);
    assert.equal(reply.body.title, 'Deploy finished');
    assert.equal(reply.body.description, 'Version 1.2.3\nall green');
    assert.equal(reply.body.category, 'inbox');
    assert.equal(reply.body.projectId, project);
    assert.equal(reply.body.notify, false);
  });

  it('a one-line body without Content-Type (curl -d style) works too', async () => {
    const { path } = await setup();
    const plain = await send(path, { body: 'Just a title' });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.title, 'Just a title');
    assert.equal(plain.body.description, null);
    const form = await send(path, { body: 'Form post', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.body.title, 'Form post');
  });

  it('headers override: Title, Category, Tags and Notify: 1', async () => {
    const { path } = await setup();
    const reply = await send(path, {
      body: 'First line stays in the description\nsecond',
      headers: { 'content-type': 'text/plain', title: 'From header', category: 'builds', tags: 'env=prod, region = eu ,empty=', notify: '1' },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.title, 'From header');
    assert.equal(reply.body.description, 'First line stays in the description\nsecond');
    assert.equal(reply.body.category, 'builds');
    assert.deepEqual(reply.body.tags, { env: 'prod', region: 'eu', empty: '' });
    assert.equal(reply.body.notify, true);
  });

  it('a notify event gets its outbox row, the hand-off to deliveries', async () => {
    const { org, path } = await setup();
    // Event ids are numbered per organization, so the organization is part of the lookup.
    const outbox = (eventId: number) => t.services.sql`SELECT event_id FROM notify_outbox WHERE organization_id = ${org.id} AND event_id = ${eventId}`;
    const reply = await send(path, { body: 'x', headers: { notify: '1' } });
    assert.equal((await outbox(reply.body.id)).length, 1);
    const quiet = await send(path, { body: 'y' });
    assert.equal((await outbox(quiet.body.id)).length, 0);
  });

  it('UTF-8 header text survives', async () => {
    const { path } = await setup();
    const reply = await t.app.inject({ method: 'POST', url: path, headers: { title: Buffer.from('Café ✓', 'utf8').toString('latin1') } });
    assert.equal(reply.statusCode, 201);
    assert.equal(reply.json().title, 'Café ✓');
  });

  it('GET with everything in the query string, including a URL-encoded emoji icon', async () => {
    const { org, project, path } = await setup();
    const query = new URLSearchParams({
      title: 'Payment received',
      category: 'billing',
      icon: '💰',
      description: 'Invoice **42**',
      tags: 'plan=pro,seats=3',
      notify: '1',
      url: 'https://example.com/i/42',
      user_id: 'cus_1',
      created_at: '1700000000',
      metadata: '{"invoice":{"lines":[1,2]}}',
    });
    const reply = await send(`${path}?${query}`, { method: 'GET' });
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body, {
      id: reply.body.id,
      projectId: project,
      category: 'billing',
      title: 'Payment received',
      description: 'Invoice **42**',
      icon: '💰',
      tags: { plan: 'pro', seats: '3' },
      metadata: { invoice: { lines: [1, 2] } },
      url: 'https://example.com/i/42',
      user_id: 'cus_1',
      notify: true,
      favorited: false,
      createdAt: '2023-11-14T22:13:20.000Z',
    });
    assert.deepEqual((await events(org, project))[0], reply.body);
  });

  it('a JSON body controls every event field; the hook decides the project', async () => {
    const { org, project, path } = await setup();
    const other = await org.project('Other');
    const body = {
      project: other,
      category: 'signups',
      title: 'New user',
      description: 'via [Google](https://google.com)',
      icon: '🎉',
      tags: { source: 'ads', count: 2 },
      metadata: [{ step: 1 }, { step: 2 }],
      url: 'https://app.example.com/u/1',
      user_id: 'u_1',
      notify: true,
      created_at: 1700000000.5,
    };
    const reply = await send(path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body, {
      id: reply.body.id,
      projectId: project,
      category: 'signups',
      title: 'New user',
      description: 'via [Google](https://google.com)',
      icon: '🎉',
      tags: { source: 'ads', count: 2 },
      metadata: [{ step: 1 }, { step: 2 }],
      url: 'https://app.example.com/u/1',
      user_id: 'u_1',
      notify: true,
      favorited: false,
      createdAt: '2023-11-14T22:13:20.500Z',
    });
    assert.deepEqual(await events(org, other), []);
  });

  it('a JSON body without category uses the default; a header still overrides it', async () => {
    const { path } = await setup({ category: 'fallback' });
    const plain = await send(path, { body: '{"title":"t"}', headers: { 'content-type': 'application/json' } });
    assert.equal(plain.body.category, 'fallback');
    const overridden = await send(path, { body: '{"title":"t","category":"json"}', headers: { 'content-type': 'application/json', category: 'header' } });
    assert.equal(overridden.body.category, 'header');
  });

  it('HEAD creates nothing', async () => {
    const { org, project, path } = await setup();
    const reply = await t.app.inject({ method: 'HEAD', url: `${path}?title=probe` });
    assert.notEqual(reply.statusCode, 201);
    assert.deepEqual(await events(org, project), []);
  });

  it('PUT is accepted like POST', async () => {
    const { path } = await setup();
    assert.equal((await send(path, { method: 'PUT', body: 'put title' })).status, 201);
  });
});

describe('incoming hook: unknown, paused and deleted tokens', () => {
  /** Everything of a reply except what varies per request. */
  const shape = (reply: Reply) => {
    const headers = { ...reply.headers };
    // Different on every reply whatever the hook: the time, and the request's own id.
    delete headers.date;
    delete headers['x-request-id'];
    return { status: reply.status, headers, body: reply.raw.rawPayload.toString('hex') };
  };

  it('answer a bare 404, byte for byte the same, and create nothing', async () => {
    const { org, project, hook, path } = await setup();
    const other = await setup();
    assert.equal((await other.org.post(`/api/hooks/${other.hook.id}/pause`)).status, 200);
    const deleted = await setup();
    await deleted.org.post(`/api/hooks/${deleted.hook.id}/delete`);
    const almost = `${path.slice(0, -1)}${path.endsWith('a') ? 'b' : 'a'}`;

    const unknown = await send('/hook/whk_0123456789abcdefghijklmnopqrstuv', { body: 'x' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.raw.rawPayload.length, 0);
    assert.equal(unknown.headers['content-type'], undefined);
    const replies = [
      await send(almost, { body: 'x' }),
      await send('/hook/not-a-token', { body: 'x' }),
      await send(other.path, { body: 'x' }),
      await send(deleted.path, { body: 'x' }),
      await send(`${other.path}?title=t`, { method: 'GET' }),
      await send(other.path, { body: '{"title":1', headers: { 'content-type': 'application/json' } }),
    ];
    for (const reply of replies) assert.deepEqual(shape(reply), shape(unknown));
    assert.deepEqual(await events(other.org, other.project), []);
    assert.deepEqual(await events(deleted.org, deleted.project), []);
    assert.deepEqual(await events(org, project), []);

    // A paused hook that is resumed works again.
    await other.org.post(`/api/hooks/${other.hook.id}/resume`);
    assert.equal((await send(other.path, { body: 'back' })).status, 201);
    assert.ok(hook.id);
  });
});

describe('incoming hook: the token cache', () => {
  it('a hook paused or deleted after use stops at once in this process', async () => {
    const paused = await setup();
    const deleted = await setup();
    assert.equal((await send(paused.path, { body: 'first' })).status, 201);
    assert.equal((await send(deleted.path, { body: 'first' })).status, 201);
    await paused.org.post(`/api/hooks/${paused.hook.id}/pause`);
    await deleted.org.post(`/api/hooks/${deleted.hook.id}/delete`);
    assert.equal((await send(paused.path, { body: 'second' })).status, 404);
    assert.equal((await send(deleted.path, { body: 'second' })).status, 404);
    await paused.org.post(`/api/hooks/${paused.hook.id}/resume`);
    assert.equal((await send(paused.path, { body: 'third' })).status, 201);
    assert.deepEqual((await events(paused.org, paused.project)).map((e) => e.title).sort(), ['first', 'third']);
  });

  it('another process forgets a paused hook as soon as it hears of it', async () => {
    const { org, hook, path } = await setup();
    const token = path.slice('/hook/'.length);
    // A second process: its own pool, bus and resolver on the same database.
    const sql = createClient(t.services.config.databaseUrl!, { max: 2 });
    const bus = new Bus(sql, () => {});
    await bus.start();
    const resolver = new HookResolver(sql, bus);
    try {
      assert.equal((await resolver.resolve(token))?.id, hook.id);
      await org.post(`/api/hooks/${hook.id}/pause`);
      await waitUntil(async () => (await resolver.resolve(token)) === null, { timeoutMs: 5000, message: 'the other process to refuse the paused hook' });
    } finally {
      resolver.close();
      await bus.close();
      await sql.end();
    }
  });
});

describe('incoming hook: body size', () => {
  let base = '';
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const bodyOf = (bytes: number) => `Big\n${'d'.repeat(bytes - 4)}`;

  it('accepts 64 KB − 1 and exactly 64 KB', async () => {
    const { org, project, path } = await setup();
    for (const size of [65_535, 65_536]) {
      const reply = await send(path, { body: bodyOf(size), headers: { 'content-type': 'text/plain' } });
      assert.equal(reply.status, 201, `size ${size}`);
      assert.equal(reply.body.description.length, size - 4);
    }
    assert.equal((await events(org, project)).length, 2);
  });

  it('refuses 64 KB + 1 with 413 {error} and creates nothing', async () => {
    const { org, project, path } = await setup({ monthlyEventCap: 100 });
    const reply = await send(path, { body: bodyOf(65_537), headers: { 'content-type': 'text/plain' } });
    assert.equal(reply.status, 413);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    const json = await send(path, { body: JSON.stringify({ title: 't', description: 'x'.repeat(65_537) }), headers: { 'content-type': 'application/json' } });
    assert.equal(json.status, 413);
    assert.deepEqual(await events(org, project), []);
    assert.equal(await usage(org.id), 0);
  });

  it('refuses a chunked body without Content-Length as soon as it passes 64 KB', async () => {
    const { org, project, path } = await setup();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write('Title\n');
      request.write('x'.repeat(65_531));
      // Past the limit now; the answer must come without the rest of the body.
      request.write('yy');
    });
    assert.equal(status, 413);
    assert.deepEqual(await events(org, project), []);
  });

  it('refuses a declared Content-Length over 64 KB before reading the body', async () => {
    const { path } = await setup();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${base}${path}`,
        { method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': String(10 * 1024 * 1024) } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      // Only the first bytes of the announced 10 MB are ever sent.
      request.write('Title\nstart');
    });
    assert.equal(status, 413);
  });
});

describe('incoming hook: monthly event cap', () => {
  it('refuses with 429 {error} once the cap is reached, and creates nothing', async () => {
    const { org, project, path } = await setup({ monthlyEventCap: 2 });
    assert.equal((await send(path, { body: 'one' })).status, 201);
    assert.equal((await send(path, { body: 'two' })).status, 201);
    const refused = await send(path, { body: 'three' });
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.equal((await events(org, project)).length, 2);
    assert.equal(await usage(org.id), 2);
  });

  it('a cap of 0 refuses everything', async () => {
    const { org, project, path } = await setup({ monthlyEventCap: 0 });
    assert.equal((await send(path, { body: 'one' })).status, 429);
    assert.deepEqual(await events(org, project), []);
  });

  it('concurrent requests cannot pass the cap together', async () => {
    const cap = 5;
    const { org, project, path } = await setup({ monthlyEventCap: cap });
    const second = await org.post(`/api/projects/${project}/hooks`, { name: 'second', category: 'other' });
    const paths = [path, new URL(second.body.url).pathname];
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => send(paths[i % 2] as string, { body: `event ${i}` })));
    const statuses = replies.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, cap, statuses.join(','));
    assert.equal(
      statuses.filter((s) => s === 429).length,
      40 - cap,
      JSON.stringify(replies.filter((r) => r.status !== 201 && r.status !== 429).map((r) => r.body)),
    );
    assert.equal((await events(org, project)).length, cap);
    assert.equal(await usage(org.id), cap);
  });

  it('no cap means no limit, and the month is still counted', async () => {
    const { org, path } = await setup();
    for (let i = 0; i < 3; i++) assert.equal((await send(path, { body: `e${i}` })).status, 201);
    assert.equal(await usage(org.id), 3);
  });

  it('events created through the API count toward the cap, and the API itself never refuses', async () => {
    const { org, project, path } = await setup({ monthlyEventCap: 2 });
    for (const title of ['a', 'b', 'c']) {
      assert.equal((await org.post('/api/events', { project, category: 'c', title })).status, 201);
    }
    assert.equal(await usage(org.id), 3);
    assert.equal((await send(path, { body: 'over the cap' })).status, 429);
    assert.equal((await events(org, project)).length, 3);
    assert.equal(await usage(org.id), 3);
  });

  it('imported events do not count toward the cap', async () => {
    const { org, path } = await setup({ monthlyEventCap: 1 });
    const imported = await org.post('/api/import', { version: 1, projects: [{ name: 'restored', events: [{ category: 'c', title: 'old' }] }] });
    assert.equal(imported.status, 200);
    assert.equal((await send(path, { body: 'first of the month' })).status, 201);
  });

  it('the cap belongs to the organization, not to one hook or project', async () => {
    const { org, path } = await setup({ monthlyEventCap: 1 });
    const otherProject = await org.project('Second');
    const otherHook = await org.post(`/api/projects/${otherProject}/hooks`, { name: 'h', category: 'c' });
    assert.equal((await send(path, { body: 'first' })).status, 201);
    assert.equal((await send(new URL(otherHook.body.url).pathname, { body: 'second' })).status, 429);
  });
});

describe('incoming hook: unusable input', () => {
  const cases: Array<[string, { method?: 'GET' | 'POST'; query?: string; body?: string; headers?: Record<string, string> }]> = [
    ['no title anywhere (empty body)', {}],
    ['no title anywhere (GET)', { method: 'GET', query: 'category=x' }],
    ['a blank body', { body: '   \n  \n' }],
    ['bad JSON', { body: '{"title": ', headers: { 'content-type': 'application/json' } }],
    ['a JSON array', { body: '[{"title":"t"}]', headers: { 'content-type': 'application/json' } }],
    ['a JSON string', { body: '"title"', headers: { 'content-type': 'application/json' } }],
    ['a JSON title that is not a string', { body: '{"title": 5}', headers: { 'content-type': 'application/json' } }],
    ['JSON without a title', { body: '{"description":"d"}', headers: { 'content-type': 'application/json' } }],
    ['JSON notify that is not a boolean', { body: '{"title":"t","notify":"yes"}', headers: { 'content-type': 'application/json' } }],
    ['JSON tags that are not an object', { body: '{"title":"t","tags":"a=b"}', headers: { 'content-type': 'application/json' } }],
    ['JSON metadata that is a string', { body: '{"title":"t","metadata":"m"}', headers: { 'content-type': 'application/json' } }],
    ['an over-long category header', { body: 't', headers: { category: 'c'.repeat(101) } }],
    ['an over-long category in the query', { query: `category=${'c'.repeat(101)}`, body: 't' }],
    ['an over-long icon', { query: `icon=${encodeURIComponent('😀'.repeat(17))}`, body: 't' }],
    ['malformed Tags', { body: 't', headers: { tags: 'just-a-word' } }],
    ['a Tags pair without a key', { body: 't', headers: { tags: '=value' } }],
    ['an unknown Notify value', { body: 't', headers: { notify: 'maybe' } }],
    ['an unusable created_at', { query: 'created_at=yesterday', body: 't' }],
    ['a negative created_at', { query: 'created_at=-5', body: 't' }],
    ['query metadata that is not JSON', { query: 'metadata=%7Bnope', body: 't' }],
    ['query metadata that is a number', { query: 'metadata=5', body: 't' }],
    ['a NUL in the title', { body: 'a\u0000b' }],
  ];
  for (const [label, request] of cases) {
    it(`answers 400 {error} for ${label}, creating and counting nothing`, async () => {
      const { org, project, path } = await setup({ monthlyEventCap: 10 });
      const reply = await send(request.query ? `${path}?${request.query}` : path, {
        method: request.method ?? 'POST',
        body: request.body,
        headers: request.headers,
      });
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.equal(typeof reply.body.error, 'string');
      assert.deepEqual(await events(org, project), []);
      assert.equal(await usage(org.id), 0);
    });
  }
});

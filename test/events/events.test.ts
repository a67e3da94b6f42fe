import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInAs } from '../signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

async function count(org: TestOrg, project: string): Promise<number> {
  const page = await org.get(`/api/events?project=${project}&limit=100`);
  return page.body.events.length;
}

describe('POST /api/events', () => {
  it('creates an event and returns the full object', async () => {
    const { org, project } = await setup();
    const reply = await org.post('/api/events', {
      project,
      category: 'payments',
      title: 'New subscription',
      description: 'Plan **pro** via [Stripe](https://stripe.com)',
      icon: '💰',
      tags: { plan: 'pro', seats: 3 },
      metadata: { request: { headers: { a: [1, 2, { b: null }] } } },
      url: 'https://example.com/x',
      user_id: 'user-1',
      notify: true,
      created_at: 1700000000.123456,
    });
    assert.equal(reply.status, 201);
    const event = reply.body;
    assert.ok(Number.isInteger(event.id) && event.id > 0);
    assert.deepEqual(event, {
      id: event.id,
      projectId: project,
      category: 'payments',
      title: 'New subscription',
      description: 'Plan **pro** via [Stripe](https://stripe.com)',
      icon: '💰',
      tags: { plan: 'pro', seats: 3 },
      metadata: { request: { headers: { a: [1, 2, { b: null }] } } },
      url: 'https://example.com/x',
      user_id: 'user-1',
      notify: true,
      favorited: false,
      createdAt: '2023-11-14T22:13:20.123Z',
    });
    const page = await org.get(`/api/events?project=${project}`);
    assert.deepEqual(page.body.events[0], event);
  });

  it('defaults optional fields and created_at to now', async () => {
    const { org, project } = await setup();
    const before = Date.now();
    const reply = await org.post('/api/events', { project, category: 'signups', title: 'Hello' });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.description, null);
    assert.equal(reply.body.tags, null);
    assert.equal(reply.body.metadata, null);
    assert.equal(reply.body.notify, false);
    assert.equal(reply.body.favorited, false);
    const created = Date.parse(reply.body.createdAt);
    assert.ok(created >= before - 2000 && created <= Date.now() + 2000, reply.body.createdAt);
  });

  it('accepts metadata arrays and keeps nesting and key order', async () => {
    const { org, project } = await setup();
    const metadata = [{ z: 1, a: { y: [true, false] } }, 'x', 3.5];
    const reply = await org.post('/api/events', { project, category: 'c', title: 't', metadata });
    assert.equal(reply.status, 201);
    const listed = await org.get(`/api/events?project=${project}`);
    assert.equal(JSON.stringify(listed.body.events[0].metadata), JSON.stringify(metadata));
  });

  it('counts category and icon limits in code points', async () => {
    const { org, project } = await setup();
    const emoji100 = '👍'.repeat(100); // 200 UTF-16 units, 100 code points
    assert.equal((await org.post('/api/events', { project, category: emoji100, title: 't' })).status, 201);
    assert.equal((await org.post('/api/events', { project, category: 'a'.repeat(100), title: 't' })).status, 201);
    assert.equal((await org.post('/api/events', { project, category: 'a'.repeat(101), title: 't' })).status, 400);
    assert.equal((await org.post('/api/events', { project, category: `${emoji100}a`, title: 't' })).status, 400);
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 't', icon: '🎉'.repeat(16) })).status, 201);
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 't', icon: '🎉'.repeat(17) })).status, 400);
    assert.equal(await count(org, project), 3);
  });

  it('accepts metadata of exactly 65536 serialized bytes and refuses one more', async () => {
    const { org, project } = await setup();
    const wrap = (n: number) => ({ d: 'x'.repeat(n) });
    const overhead = JSON.stringify(wrap(0)).length;
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 't', metadata: wrap(65536 - overhead) })).status, 201);
    const over = await org.post('/api/events', { project, category: 'c', title: 't', metadata: wrap(65537 - overhead) });
    assert.equal(over.status, 400);
    assert.match(over.body.error, /65536/);
    // Multi-byte characters count as bytes, not characters.
    const euro = await org.post('/api/events', { project, category: 'c', title: 't', metadata: { d: '€'.repeat(22000) } });
    assert.equal(euro.status, 400);
    assert.equal(await count(org, project), 1);
  });

  it('keeps microseconds of created_at for the cursor and milliseconds in createdAt', async () => {
    const { org, project } = await setup();
    await org.post('/api/events', { project, category: 'c', title: 'a', created_at: 1700000000.000001 });
    await org.post('/api/events', { project, category: 'c', title: 'b', created_at: 1700000000.000002 });
    const first = await org.get(`/api/events?project=${project}&limit=1`);
    assert.equal(first.body.events[0].title, 'b');
    assert.equal(first.body.nextCursor, `2023-11-14T22:13:20.000002Z_${first.body.events[0].id}`);
    const second = await org.get(`/api/events?project=${project}&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.equal(second.body.events[0].title, 'a');
    assert.equal(second.body.nextCursor, null);
  });

  const bad: Array<[string, Record<string, unknown>]> = [
    ['missing project', { category: 'c', title: 't' }],
    ['missing category', { title: 't' }],
    ['missing title', { category: 'c' }],
    ['empty title', { category: 'c', title: '' }],
    ['blank category', { category: '  ', title: 't' }],
    ['numeric title', { category: 'c', title: 5 }],
    ['numeric category', { category: 5, title: 't' }],
    ['null title', { category: 'c', title: null }],
    ['array tags', { category: 'c', title: 't', tags: ['a'] }],
    ['string tags', { category: 'c', title: 't', tags: 'a=b' }],
    ['string metadata', { category: 'c', title: 't', metadata: 'boom' }],
    ['numeric metadata', { category: 'c', title: 't', metadata: 42 }],
    ['boolean metadata', { category: 'c', title: 't', metadata: true }],
    ['string notify', { category: 'c', title: 't', notify: 'yes' }],
    ['numeric notify', { category: 'c', title: 't', notify: 1 }],
    ['string created_at', { category: 'c', title: 't', created_at: '1700000000' }],
    ['negative created_at', { category: 'c', title: 't', created_at: -1 }],
    ['huge created_at', { category: 'c', title: 't', created_at: 1e20 }],
    ['numeric icon', { category: 'c', title: 't', icon: 7 }],
    ['numeric url', { category: 'c', title: 't', url: 7 }],
    ['object description', { category: 'c', title: 't', description: {} }],
    ['numeric user_id', { category: 'c', title: 't', user_id: 1 }],
    ['NUL in title', { category: 'c', title: 'a\u0000b' }],
    ['NUL in tags', { category: 'c', title: 't', tags: { a: 'x\u0000' } }],
  ];
  for (const [label, body] of bad) {
    it(`refuses ${label} with 400 {error} and writes nothing`, async () => {
      const { org, project } = await setup();
      const reply = await org.post('/api/events', label === 'missing project' ? body : { project, ...body });
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.equal(await count(org, project), 0);
    });
  }

  it('refuses a project of another organization with 404', async () => {
    const { project } = await setup();
    const other = await t.org();
    const reply = await other.post('/api/events', { project, category: 'c', title: 't' });
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    const unknown = await other.post('/api/events', { project: 'nosuchproject', category: 'c', title: 't' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, reply.body.error);
  });

  it('refuses a body over the size limit with 413 {error}', async () => {
    const { org, project } = await setup();
    const reply = await org.post('/api/events', { project, category: 'c', title: 't', description: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(reply.status, 413);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('writes concurrent creates (group commit) and acknowledges each with its own id', async () => {
    const { org, project } = await setup();
    const other = await t.org();
    const foreign = await other.project();
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 10 === 9
          ? org.post('/api/events', { project: foreign, category: 'c', title: `x${i}` })
          : org.post('/api/events', { project, category: `cat${i % 3}`, title: `e${i}`, notify: i % 2 === 0 }),
      ),
    );
    const created = replies.filter((r) => r.status === 201);
    assert.equal(created.length, 54);
    assert.equal(replies.filter((r) => r.status === 404).length, 6);
    assert.equal(new Set(created.map((r) => r.body.id)).size, 54);
    for (const r of created) assert.equal(r.body.projectId, project);
    const titles = new Set(created.map((r) => r.body.title));
    assert.equal(titles.size, 54);
    const categories = await org.get(`/api/categories?project=${project}`);
    assert.deepEqual(categories.body, [
      { name: 'cat0', count: 18 },
      { name: 'cat1', count: 18 },
      { name: 'cat2', count: 18 },
    ]);
  });
});

describe('GET /api/events', () => {
  async function seed(org: TestOrg, project: string, n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
    for (let i = 0; i < n; i++) {
      const reply = await org.post('/api/events', { project, category: 'c', title: `event ${i}`, created_at: 1700000000 + i, ...extra(i) });
      assert.equal(reply.status, 201);
    }
  }

  it('pages newest first with a cursor until nextCursor is null', async () => {
    const { org, project } = await setup();
    await seed(org, project, 7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const reply: { status: number; body: { events: Array<{ title: string }>; nextCursor: string | null } } = await org.get(
        `/api/events?project=${project}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(reply.status, 200);
      seen.push(...reply.body.events.map((e) => e.title));
      cursor = reply.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      [6, 5, 4, 3, 2, 1, 0].map((i) => `event ${i}`),
    );
  });

  it('breaks created_at ties by id descending', async () => {
    const { org, project } = await setup();
    for (const title of ['a', 'b', 'c']) await org.post('/api/events', { project, category: 'c', title, created_at: 1700000000 });
    const first = await org.get(`/api/events?project=${project}&limit=2`);
    assert.deepEqual(
      first.body.events.map((e: { title: string }) => e.title),
      ['c', 'b'],
    );
    const rest = await org.get(`/api/events?project=${project}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual(
      rest.body.events.map((e: { title: string }) => e.title),
      ['a'],
    );
  });

  it('clamps limit to 1..100 and defaults to 50', async () => {
    const { org, project } = await setup();
    await seed(org, project, 3);
    const len = async (q: string) => (await org.get(`/api/events?project=${project}${q}`)).body.events.length;
    assert.equal(await len('&limit=0'), 1);
    assert.equal(await len('&limit=-4'), 1);
    assert.equal(await len('&limit=2'), 2);
    assert.equal(await len('&limit=1000'), 3);
    assert.equal(await len('&limit=abc'), 3);
    assert.equal(await len(''), 3);
  });

  it('treats an unreadable cursor as the first page', async () => {
    const { org, project } = await setup();
    await seed(org, project, 2);
    for (const cursor of ['garbage', '_', '2023-13-99T00:00:00Z_1', '2023-11-14T22:13:20Z_abc', '2023-11-14T22:13:20Z_99999999999']) {
      const reply = await org.get(`/api/events?project=${project}&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.events.length, 2, cursor);
    }
  });

  it('filters by category', async () => {
    const { org, project } = await setup();
    await seed(org, project, 4, (i) => ({ category: i % 2 ? 'odd' : 'even' }));
    const reply = await org.get(`/api/events?project=${project}&category=odd`);
    assert.deepEqual(
      reply.body.events.map((e: { title: string }) => e.title),
      ['event 3', 'event 1'],
    );
  });

  it('searches title, description and tags text case-insensitively, never metadata', async () => {
    const { org, project } = await setup();
    await org.post('/api/events', { project, category: 'c', title: 'Alpha Payment', created_at: 1 });
    await org.post('/api/events', { project, category: 'c', title: 'x', description: 'has PAYMENT inside', created_at: 2 });
    await org.post('/api/events', { project, category: 'c', title: 'y', tags: { kind: 'payment' }, created_at: 3 });
    await org.post('/api/events', { project, category: 'c', title: 'z', metadata: { kind: 'payment' }, created_at: 4 });
    const titles = async (search: string) =>
      (await org.get(`/api/events?project=${project}&search=${encodeURIComponent(search)}`)).body.events.map((e: { title: string }) => e.title);
    assert.deepEqual(await titles('payment'), ['y', 'x', 'Alpha Payment']);
    assert.deepEqual(await titles('"kind":"payment"'), ['y']);
    assert.deepEqual(await titles('nothing-like-this'), []);
  });

  it('matches %, _ and \\ in search literally', async () => {
    const { org, project } = await setup();
    for (const [i, title] of ['100% sure', '100 percent', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash'].entries()) {
      await org.post('/api/events', { project, category: 'c', title, created_at: 10 + i });
    }
    const titles = async (search: string) =>
      (await org.get(`/api/events?project=${project}&search=${encodeURIComponent(search)}`)).body.events.map((e: { title: string }) => e.title);
    assert.deepEqual(await titles('100%'), ['100% sure']);
    assert.deepEqual(await titles('e_c'), ['snake_case']);
    assert.deepEqual(await titles('k\\s'), ['back\\slash']);
    assert.deepEqual(await titles('%'), ['100% sure']);
  });

  it('pages through search results with a cursor', async () => {
    const { org, project } = await setup();
    await seed(org, project, 9, (i) => ({ title: i % 3 === 0 ? `match ${i}` : `other ${i}` }));
    const first = await org.get(`/api/events?project=${project}&search=match&limit=2`);
    assert.deepEqual(
      first.body.events.map((e: { title: string }) => e.title),
      ['match 6', 'match 3'],
    );
    const second = await org.get(`/api/events?project=${project}&search=match&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual(
      second.body.events.map((e: { title: string }) => e.title),
      ['match 0'],
    );
    assert.equal(second.body.nextCursor, null);
  });

  it('answers 404 without or with a foreign project', async () => {
    const { project } = await setup();
    const other = await t.org();
    assert.equal((await other.get(`/api/events?project=${project}`)).status, 404);
    assert.equal((await other.get('/api/events')).status, 404);
  });
});

describe('GET /api/events/:eventId', () => {
  it('answers the whole event, the same object the feed lists, to a key and to a session', async () => {
    const { org, project } = await setup();
    const created = (await org.post('/api/events', { project, category: 'c', title: 't', tags: { a: 1 }, metadata: [1], user_id: 'u' })).body;
    await org.post(`/api/events/${created.id}/favorite`);
    const listed = (await org.get(`/api/events?project=${project}`)).body.events[0];
    const reply = await org.get(`/api/events/${created.id}`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, listed);
    assert.equal(reply.body.favorited, true);
    const browser = await signInAs(t, org);
    assert.deepEqual((await browser.get(`/api/events/${created.id}`)).body, listed);
  });

  it('answers 404 {error} for a deleted event, another organization event and a deleted project', async () => {
    const { org, project } = await setup();
    const { id } = (await org.post('/api/events', { project, category: 'c', title: 't' })).body;
    const other = await t.org();
    const foreign = await other.get(`/api/events/${id}`);
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.body), ['error']);
    assert.equal((await org.get('/api/events/2147483647')).status, 404);
    await org.post(`/api/events/${id}/delete`);
    assert.equal((await org.get(`/api/events/${id}`)).status, 404);
    const kept = (await org.post('/api/events', { project, category: 'c', title: 'kept' })).body.id;
    assert.equal((await org.get(`/api/events/${kept}`)).status, 200);
    await org.post(`/api/projects/${project}/delete`);
    assert.equal((await org.get(`/api/events/${kept}`)).status, 404);
  });

  for (const id of ['0', '-1', 'abc', '1.5', '2147483648', '1e3', ' 1']) {
    it(`refuses event id ${JSON.stringify(id)} with 400 {error}`, async () => {
      const reply = await (await t.org()).get(`/api/events/${encodeURIComponent(id)}`);
      assert.equal(reply.status, 400);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    });
  }
});

describe('favorite and delete', () => {
  it('toggles favorited and returns the new value', async () => {
    const { org, project } = await setup();
    const { id } = (await org.post('/api/events', { project, category: 'c', title: 't' })).body;
    assert.deepEqual((await org.post(`/api/events/${id}/favorite`)).body, { id, favorited: true });
    assert.deepEqual((await org.post(`/api/events/${id}/favorite`)).body, { id, favorited: false });
    assert.deepEqual((await org.post(`/api/events/${id}/favorite`, {})).body, { id, favorited: true });
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events[0].favorited, true);
  });

  it('deletes an event and updates category counts', async () => {
    const { org, project } = await setup();
    const { id } = (await org.post('/api/events', { project, category: 'c', title: 't' })).body;
    assert.deepEqual((await org.post(`/api/events/${id}/delete`)).body, { id, deleted: true });
    assert.equal((await org.post(`/api/events/${id}/delete`)).status, 404);
    assert.equal((await org.post(`/api/events/${id}/favorite`)).status, 404);
    assert.equal(await count(org, project), 0);
    assert.deepEqual((await org.get(`/api/categories?project=${project}`)).body, [{ name: 'c', count: 0 }]);
  });

  for (const id of ['0', '-1', 'abc', '1.5', '2147483648', '99999999999', '1e3', ' 1']) {
    it(`refuses event id ${JSON.stringify(id)} with 400`, async () => {
      const org = await t.org();
      for (const action of ['favorite', 'delete']) {
        const reply = await org.post(`/api/events/${encodeURIComponent(id)}/${action}`);
        assert.equal(reply.status, 400, `${action} ${id}: ${JSON.stringify(reply.body)}`);
        assert.deepEqual(Object.keys(reply.body), ['error']);
      }
    });
  }

  it('answers 404 for another organization event, and changes nothing', async () => {
    const { org, project } = await setup();
    const { id } = (await org.post('/api/events', { project, category: 'c', title: 't' })).body;
    const other = await t.org();
    assert.equal((await other.post(`/api/events/${id}/favorite`)).status, 404);
    assert.equal((await other.post(`/api/events/${id}/delete`)).status, 404);
    assert.equal((await other.post('/api/events/2147483647/delete')).status, 404);
    const mine = (await org.get(`/api/events?project=${project}`)).body.events;
    assert.equal(mine.length, 1);
    assert.equal(mine[0].favorited, false);
  });
});

describe('request bodies', () => {
  it('treats an empty JSON body on favorite as no body', async () => {
    const org = await t.org();
    const project = await org.project();
    const { id } = (await org.post('/api/events', { project, category: 'c', title: 't' })).body;
    const reply = await t.request({
      method: 'POST',
      url: `/api/events/${id}/favorite`,
      payload: '',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { id, favorited: true });
  });

  it('refuses an empty JSON body where a body is required', async () => {
    const org = await t.org();
    const reply = await t.request({
      method: 'POST',
      url: '/api/events',
      payload: '',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('answers an unsupported content type with 415 {error}', async () => {
    const org = await t.org();
    const reply = await t.request({
      method: 'POST',
      url: '/api/projects',
      payload: 'name=x',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(reply.status, 415);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });
});

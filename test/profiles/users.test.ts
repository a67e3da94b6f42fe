import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

const NOW = Math.floor(Date.now() / 1000);

async function event(org: TestOrg, project: string, userId: string | null, createdAt?: number): Promise<number> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', user_id: userId, ...(createdAt ? { created_at: createdAt } : {}) });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

const user = (org: TestOrg, project: string, userId: string) => org.get(`/api/users/${encodeURIComponent(userId)}?project=${project}`);

describe('users', () => {
  it('exist once an event names them, with first/last seen and the count of their events', async () => {
    const { org, project } = await setup();
    await event(org, project, 'u/1 ä', NOW - 300);
    await event(org, project, 'u/1 ä', NOW - 100);
    await event(org, project, 'u/1 ä', NOW - 200);
    await event(org, project, null);
    const reply = await user(org, project, 'u/1 ä');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, {
      userId: 'u/1 ä',
      properties: {},
      firstSeen: new Date((NOW - 300) * 1000).toISOString(),
      lastSeen: new Date((NOW - 100) * 1000).toISOString(),
      eventCount: 3,
    });
    assert.equal((await org.get(`/api/users?project=${project}`)).body.users.length, 1);
  });

  it('identify merges properties: null removes, others replace, absent keys stay', async () => {
    const { org, project } = await setup();
    let reply = await org.post('/api/identify', { project, user_id: 'ann', properties: { plan: 'free', seats: 3, admin: true, gone: 'x' } });
    assert.deepEqual([reply.status, reply.body], [200, { ok: true }]);
    reply = await org.post('/api/identify', { project, user_id: 'ann', properties: { plan: 'pro', gone: null, extra: null } });
    assert.equal(reply.status, 200);
    const got = await user(org, project, 'ann');
    assert.deepEqual(got.body.properties, { plan: 'pro', seats: 3, admin: true });
    assert.equal(got.body.eventCount, 0);
    assert.ok(got.body.firstSeen && got.body.lastSeen, 'identify counts as seen');
    assert.equal((await org.post('/api/identify', { project, user_id: 'ann', properties: {} })).status, 200);
  });

  it('identify refuses bad bodies with 400 and unknown projects with 404, changing nothing', async () => {
    const { org, project } = await setup();
    const bad: unknown[] = [
      { user_id: 'a', properties: {} },
      { project, properties: {} },
      { project, user_id: '', properties: {} },
      { project, user_id: 'x'.repeat(256), properties: {} },
      { project, user_id: 5, properties: {} },
      { project, user_id: 'a' },
      { project, user_id: 'a', properties: [] },
      { project, user_id: 'a', properties: 'x' },
      { project, user_id: 'a', properties: { nested: { a: 1 } } },
      { project, user_id: 'a', properties: { list: [1] } },
      { project, user_id: 'a', properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
      { project, user_id: 'a', properties: { big: 'x'.repeat(16_384) } },
    ];
    for (const body of bad) {
      const reply = await org.post('/api/identify', body);
      assert.equal(reply.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
    }
    assert.equal((await org.post('/api/identify', { project: 'nosuchproject', user_id: 'a', properties: {} })).status, 404);
    assert.deepEqual((await org.get(`/api/users?project=${project}`)).body.users, []);
    assert.equal((await org.post('/api/identify', { project, user_id: 'x'.repeat(255), properties: {} })).status, 200);
  });

  it('limits apply to the merged properties: 100 keys and 16,384 bytes of JSON', async () => {
    const { org, project } = await setup();
    const fifty = (prefix: string) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${prefix}${i}`, i]));
    assert.equal((await org.post('/api/identify', { project, user_id: 'b', properties: fifty('a') })).status, 200);
    assert.equal((await org.post('/api/identify', { project, user_id: 'b', properties: fifty('b') })).status, 200);
    const over = await org.post('/api/identify', { project, user_id: 'b', properties: { one: 'more' } });
    assert.equal(over.status, 400);
    assert.equal(Object.keys((await user(org, project, 'b')).body.properties).length, 100);
    // Exactly 16,384 bytes as JSON.stringify writes it is allowed.
    const exact = { p: 'é'.repeat((16_384 - '{"p":""}'.length) / 2) };
    assert.equal(Buffer.byteLength(JSON.stringify(exact)), 16_384);
    assert.equal((await org.post('/api/identify', { project, user_id: 'c', properties: exact })).status, 200);
    assert.equal((await org.post('/api/identify', { project, user_id: 'c', properties: { q: 1 } })).status, 400);
  });

  it('lists by last seen, newest first, with a keyset cursor; never-seen users last; search matches ids and values', async () => {
    const { org, project } = await setup();
    for (let i = 0; i < 5; i++) await event(org, project, `user${i}`, NOW - 1000 + i);
    await org.post('/api/identify', { project, user_id: 'user1', properties: { company: 'ACME Corp', seats: 42, trial: false } });
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const reply: { status: number; body: { users: Array<{ userId: string }>; nextCursor: string | null } } = await org.get(
        `/api/users?project=${project}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(reply.status, 200);
      assert.ok(reply.body.users.length <= 2);
      ids.push(...reply.body.users.map((u) => u.userId));
      cursor = reply.body.nextCursor;
    } while (cursor);
    assert.deepEqual(ids, ['user1', 'user4', 'user3', 'user2', 'user0']);
    const search = async (q: string) =>
      (await org.get(`/api/users?project=${project}&search=${encodeURIComponent(q)}`)).body.users.map((u: { userId: string }) => u.userId);
    assert.deepEqual(await search('acme'), ['user1']);
    assert.deepEqual(await search('42'), ['user1']);
    assert.deepEqual(await search('FALSE'), ['user1']);
    assert.deepEqual(await search('SER3'), ['user3']);
    assert.deepEqual(await search('%'), []);
    assert.equal((await org.get(`/api/users?project=${project}&limit=500`)).body.users.length, 5);
  });

  it('deleting events keeps counts and first/last seen exact; the user stays with nulls', async () => {
    const { org, project } = await setup();
    const first = await event(org, project, 'dee', NOW - 300);
    const middle = await event(org, project, 'dee', NOW - 200);
    const last = await event(org, project, 'dee', NOW - 100);
    assert.equal((await org.post(`/api/events/${last}/delete`)).status, 200);
    let got = (await user(org, project, 'dee')).body;
    assert.equal(got.eventCount, 2);
    assert.equal(got.lastSeen, new Date((NOW - 200) * 1000).toISOString());
    await org.post(`/api/events/${first}/delete`);
    got = (await user(org, project, 'dee')).body;
    assert.equal(got.firstSeen, new Date((NOW - 200) * 1000).toISOString());
    await org.post(`/api/events/${middle}/delete`);
    got = (await user(org, project, 'dee')).body;
    assert.deepEqual(got, { userId: 'dee', properties: {}, firstSeen: null, lastSeen: null, eventCount: 0 });
    await event(org, project, 'zed', NOW - 50);
    const listed = (await org.get(`/api/users?project=${project}`)).body.users.map((u: { userId: string }) => u.userId);
    assert.deepEqual(listed, ['zed', 'dee']);
  });

  it('counts exactly under concurrent writes', async () => {
    const { org, project } = await setup();
    await Promise.all(Array.from({ length: 60 }, (_, i) => event(org, project, `c${i % 3}`)));
    for (let i = 0; i < 3; i++) assert.equal((await user(org, project, `c${i}`)).body.eventCount, 20);
    await Promise.all(Array.from({ length: 20 }, (_, i) => org.post('/api/identify', { project, user_id: 'p', properties: { [`k${i}`]: i } })));
    assert.equal(Object.keys((await user(org, project, 'p')).body.properties).length, 20);
  });

  it('imports create users too; a user_id over 255 characters does not', async () => {
    const { org, project } = await setup();
    await event(org, project, 'y'.repeat(256));
    assert.deepEqual((await org.get(`/api/users?project=${project}`)).body.users, []);
    const events = [1, 2].map((i) => ({ category: 'c', title: `imported ${i}`, user_id: 'imported-user', created_at: NOW - 1000 * i }));
    const imported = await org.post('/api/import', { version: 1, projects: [{ name: 'Imported', events }] });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const projects = (await org.get('/api/projects')).body as Array<{ id: string; name: string }>;
    const target = projects.find((p) => p.name === 'Imported')!.id;
    const got = (await user(org, target, 'imported-user')).body;
    assert.deepEqual([got.eventCount, got.firstSeen], [2, new Date((NOW - 2000) * 1000).toISOString()]);
  });

  it('an import counts each user over the whole file: undated events are seen at the import, long ids make no user', async () => {
    const { org } = await setup();
    const events = [
      { category: 'c', title: 'late', user_id: 'mixed', created_at: NOW - 100 },
      { category: 'c', title: 'undated', user_id: 'mixed' },
      { category: 'c', title: 'early', user_id: 'mixed', created_at: NOW - 500 },
      { category: 'c', title: 'long', user_id: 'z'.repeat(256) },
      // More users than one insert of 1,000 rows holds.
      ...Array.from({ length: 1500 }, (_, i) => ({ category: 'c', title: `one ${i}`, user_id: `one-${i}`, created_at: NOW - i })),
    ];
    const before = Date.now();
    const imported = await org.post('/api/import', { version: 1, projects: [{ name: 'Counted', events }] });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const projects = (await org.get('/api/projects')).body as Array<{ id: string; name: string }>;
    const target = projects.find((p) => p.name === 'Counted')!.id;
    const mixed = (await user(org, target, 'mixed')).body;
    assert.equal(mixed.eventCount, 3);
    assert.equal(mixed.firstSeen, new Date((NOW - 500) * 1000).toISOString());
    const lastSeen = Date.parse(mixed.lastSeen);
    assert.ok(lastSeen >= before - 1000 && lastSeen <= Date.now(), `the undated event is the latest: ${mixed.lastSeen}`);
    assert.deepEqual((await org.get(`/api/users?project=${target}&search=zzzz`)).body.users, []);
    for (const id of ['one-0', 'one-999', 'one-1000', 'one-1499']) {
      const one = (await user(org, target, id)).body;
      assert.deepEqual([one.eventCount, one.firstSeen, one.lastSeen], [1, one.firstSeen, one.firstSeen], id);
    }
    assert.equal((await user(org, target, 'one-1499')).body.firstSeen, new Date((NOW - 1499) * 1000).toISOString());
  });

  it('answers 400 without project, 404 for unknown projects and users, and scopes to the organization', async () => {
    const { org, project } = await setup();
    await event(org, project, 'me');
    assert.equal((await org.get('/api/users')).status, 400);
    assert.equal((await org.get('/api/users/me')).status, 400);
    assert.equal((await org.get('/api/users?project=nosuchproject')).status, 404);
    assert.equal((await user(org, project, 'nobody')).status, 404);
    const other = await t.org();
    assert.equal((await user(other, project, 'me')).status, 404);
    assert.equal((await other.get(`/api/users?project=${project}`)).status, 404);
  });

  it("a user's journey is the feed filtered by user_id", async () => {
    const { org, project } = await setup();
    const mine = [await event(org, project, 'j'), await event(org, project, 'j')];
    await event(org, project, 'k');
    const feed = await org.get(`/api/events?project=${project}&user_id=j`);
    assert.deepEqual(
      feed.body.events.map((e: { id: number }) => e.id),
      mine.reverse(),
    );
  });

  it('POST /v1/identify is identify with LogSnag names: project by id or exact name, 400 when the name is shared', async () => {
    const org = await t.org();
    const project = await org.project('Web shop');
    let reply = await org.post('/v1/identify', { project: 'Web shop', user_id: 'v1', properties: { plan: 'pro' } });
    assert.deepEqual([reply.status, reply.body], [200, { ok: true }]);
    reply = await org.post('/v1/identify', { project, user_id: 'v1', properties: { seats: 2 } });
    assert.equal(reply.status, 200);
    assert.deepEqual((await user(org, project, 'v1')).body.properties, { plan: 'pro', seats: 2 });
    assert.equal((await org.post('/v1/identify', { project: 'web shop', user_id: 'v1', properties: {} })).status, 404);
    assert.equal((await org.post('/api/identify', { project: 'Web shop', user_id: 'v1', properties: {} })).status, 404);
    await org.project('Web shop');
    assert.equal((await org.post('/v1/identify', { project: 'Web shop', user_id: 'v1', properties: {} })).status, 400);
    assert.equal((await org.post('/v1/identify', { project, user_id: 'v1', properties: [] })).status, 400);
    const anonymous = await t.request({ method: 'POST', url: '/v1/identify', body: { project, user_id: 'v1', properties: {} } });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(Object.keys(anonymous.body), ['error']);
    assert.equal((await (await t.org()).post('/v1/identify', { project: 'Web shop', user_id: 'v1', properties: {} })).status, 404);
  });
});

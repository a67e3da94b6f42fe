import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

const NOW = Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

async function event(org: TestOrg, project: string, userId: string, createdAt: number): Promise<void> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', user_id: userId, created_at: createdAt });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

async function group(org: TestOrg, body: Record<string, unknown>, route = '/api/group') {
  const reply = await org.post(route, body);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.group;
}

const del = (org: TestOrg, url: string) => t.request({ method: 'DELETE', url, headers: { authorization: `Bearer ${org.key}` } });
const list = async (org: TestOrg, query: string) => {
  const reply = await org.get(`/api/groups?${query}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { groups: Array<{ id: string; users: number; lastSeenAt: string | null }>; nextCursor: string | null };
};

describe('groups', () => {
  it('a group call creates the group, merges its properties as identify does and adds the user', async () => {
    const { org, project } = await setup();
    const before = Date.now();
    const made = await group(org, { project, group_id: 'acme', properties: { name: 'Acme', plan: 'pro', seats: 3, paying: true } });
    assert.equal(made.id, 'acme');
    assert.equal(made.project, project);
    assert.deepEqual(made.properties, { name: 'Acme', plan: 'pro', seats: 3, paying: true });
    assert.equal(made.users, 0);
    assert.equal(made.lastSeenAt, null);
    assert.ok(Date.parse(made.firstSeenAt) >= before - 5000);
    const merged = await group(org, { project, group_id: 'acme', user_id: 'ann', properties: { plan: null, seats: 5, missing: null } });
    assert.deepEqual(merged.properties, { name: 'Acme', seats: 5, paying: true });
    assert.equal(merged.users, 1);
    assert.equal(merged.firstSeenAt, made.firstSeenAt);
    // Joining again changes nothing; a user joins several groups.
    assert.equal((await group(org, { project, group_id: 'acme', user_id: 'ann' })).users, 1);
    assert.equal((await group(org, { project, group_id: 'globex', user_id: 'ann' })).users, 1);
    const user = await org.get(`/api/users/ann?project=${project}`);
    assert.equal(user.status, 200, 'the user is created as identify creates one');
    assert.deepEqual(user.body.properties, {});
    assert.ok(user.body.lastSeen);
    const groups = await org.get(`/api/users/ann/groups?project=${project}`);
    assert.deepEqual(
      groups.body.groups.map((g: { id: string }) => g.id),
      ['acme', 'globex'],
    );
  });

  it('an existing user is not touched by joining a group', async () => {
    const { org, project } = await setup();
    await event(org, project, 'bob', NOW - 600);
    await org.post('/api/identify', { project, user_id: 'bob', properties: { role: 'admin' } });
    const before = (await org.get(`/api/users/bob?project=${project}`)).body;
    await group(org, { project, group_id: 'g', user_id: 'bob' });
    assert.deepEqual((await org.get(`/api/users/bob?project=${project}`)).body, before);
  });

  it('lastSeenAt is the newest event of any of its users, and follows deletes', async () => {
    const { org, project } = await setup();
    await group(org, { project, group_id: 'g', user_id: 'a' });
    await group(org, { project, group_id: 'g', user_id: 'b' });
    await event(org, project, 'a', NOW - 300);
    await event(org, project, 'b', NOW - 100);
    await event(org, project, 'outsider', NOW - 10);
    const got = await org.get(`/api/groups/g?project=${project}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.group.lastSeenAt, iso(NOW - 100));
    assert.equal(got.body.group.users, 2);
    assert.deepEqual(got.body.group.userIds, ['a', 'b']);
    const feed = await org.get(`/api/events?project=${project}&user_id=b`);
    assert.equal((await org.post(`/api/events/${feed.body.events[0].id}/delete`)).status, 200);
    assert.equal((await org.get(`/api/groups/g?project=${project}`)).body.group.lastSeenAt, iso(NOW - 300));
  });

  it('lists groups newest lastSeenAt first, groups without events last, by keyset pages', async () => {
    const { org, project } = await setup();
    for (const [id, age] of [
      ['old', 900],
      ['new', 100],
      ['mid', 500],
    ] as const) {
      await group(org, { project, group_id: id, user_id: `${id}-user` });
      await event(org, project, `${id}-user`, NOW - age);
    }
    await group(org, { project, group_id: 'quiet', properties: { name: 'Quiet' } });
    const first = await list(org, `project=${project}&limit=2`);
    assert.deepEqual(
      first.groups.map((g) => g.id),
      ['new', 'mid'],
    );
    assert.ok(first.nextCursor);
    const second = await list(org, `project=${project}&limit=2&cursor=${first.nextCursor}`);
    assert.deepEqual(
      second.groups.map((g) => g.id),
      ['old', 'quiet'],
    );
    assert.equal(second.nextCursor, null);
    assert.equal((await list(org, `project=${project}&limit=0`)).groups.length, 1, 'limit is clamped to 1');
    assert.equal((await list(org, `project=${project}&limit=500`)).groups.length, 4);
  });

  it('sorts by users and by name, with keyset pages', async () => {
    const { org, project } = await setup();
    await group(org, { project, group_id: 'g1', properties: { name: 'beta' } });
    for (const user of ['x', 'y']) await group(org, { project, group_id: 'g2', user_id: user, properties: { name: 'Alpha' } });
    await group(org, { project, group_id: 'g3', user_id: 'z' });
    const pages = async (sort: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(org, `project=${project}&sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        ids.push(...page.groups.map((g) => g.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    assert.deepEqual(await pages('users'), ['g2', 'g3', 'g1']);
    assert.deepEqual(await pages('name'), ['g2', 'g1', 'g3']);
    assert.equal((await org.get(`/api/groups?project=${project}&sort=size`)).status, 400);
  });

  it('search matches the id and property values, case-insensitive', async () => {
    const { org, project } = await setup();
    await group(org, { project, group_id: 'ACME-1', properties: { plan: 'free' } });
    await group(org, { project, group_id: 'other', properties: { name: 'Big Acme Corp', seats: 42 } });
    await group(org, { project, group_id: 'third', properties: { name: 'Nothing' } });
    assert.deepEqual((await list(org, `project=${project}&search=acme`)).groups.map((g) => g.id).sort(), ['ACME-1', 'other']);
    assert.deepEqual(
      (await list(org, `project=${project}&search=42`)).groups.map((g) => g.id),
      ['other'],
    );
    assert.deepEqual((await list(org, `project=${project}&search=%25`)).groups, []);
  });

  it('delete removes the group and its memberships, not the users or their events', async () => {
    const { org, project } = await setup();
    await group(org, { project, group_id: 'g', user_id: 'ann' });
    await event(org, project, 'ann', NOW - 5);
    const deleted = await del(org, `/api/groups/g?project=${project}`);
    assert.deepEqual([deleted.status, deleted.body], [200, { id: 'g', deleted: true }]);
    assert.equal((await org.get(`/api/groups/g?project=${project}`)).status, 404);
    assert.equal((await del(org, `/api/groups/g?project=${project}`)).status, 404);
    assert.equal((await org.get(`/api/users/ann?project=${project}`)).body.eventCount, 1);
    assert.deepEqual((await org.get(`/api/users/ann/groups?project=${project}`)).body.groups, []);
    // Made again, it starts empty.
    assert.equal((await group(org, { project, group_id: 'g', properties: {} })).users, 0);
  });

  it('unknown groups, projects and other organizations are 404', async () => {
    const { org, project } = await setup();
    const other = await t.org();
    await group(org, { project, group_id: 'mine', user_id: 'u' });
    assert.equal((await org.get(`/api/groups/nope?project=${project}`)).status, 404);
    assert.equal((await org.get(`/api/groups/${'x'.repeat(300)}?project=${project}`)).status, 404);
    assert.equal((await other.get(`/api/groups/mine?project=${project}`)).status, 404);
    assert.equal((await other.get(`/api/groups?project=${project}`)).status, 404);
    assert.equal((await other.post('/api/group', { project, group_id: 'mine', user_id: 'v' })).status, 404);
    assert.equal((await del(other, `/api/groups/mine?project=${project}`)).status, 404);
    assert.equal((await org.get(`/api/groups/mine?project=${project}`)).body.group.users, 1);
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const { org, project } = await setup();
    await group(org, { project, group_id: 'g', properties: { kept: 'yes' } });
    const bad: unknown[] = [
      { project, group_id: 'g' },
      { project, group_id: 'g', user_id: null, properties: null },
      { group_id: 'g', properties: {} },
      { project, properties: {} },
      { project, group_id: '', properties: {} },
      { project, group_id: 'x'.repeat(256), properties: {} },
      { project, group_id: 7, properties: {} },
      { project, group_id: 'g', user_id: '' },
      { project, group_id: 'g', user_id: 'u'.repeat(256) },
      { project, group_id: 'g', properties: [] },
      { project, group_id: 'g', properties: 'x' },
      { project, group_id: 'g', properties: { Upper: 1 } },
      { project, group_id: 'g', properties: { ['k'.repeat(101)]: 1 } },
      { project, group_id: 'g', properties: { '': 1 } },
      { project, group_id: 'g', properties: { long: 'v'.repeat(1001) } },
      { project, group_id: 'g', properties: { nested: { a: 1 } } },
      { project, group_id: 'g', properties: { list: [1] } },
      { project, group_id: 'g', properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
      { project, group_id: 'g', user_id: 'u'.repeat(256), properties: { kept: 'no' } },
    ];
    for (const body of bad) {
      const reply = await org.post('/api/group', body);
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 200));
      assert.equal(typeof reply.body.error, 'string');
    }
    // 99 more keys than the one stored make 100: allowed; one more is refused.
    const many = Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`k${i}`, i]));
    assert.equal((await org.post('/api/group', { project, group_id: 'g', properties: many })).status, 200);
    assert.equal((await org.post('/api/group', { project, group_id: 'g', properties: { one: 'more' } })).status, 400);
    const stored = (await org.get(`/api/groups/g?project=${project}`)).body.group;
    assert.equal(stored.properties.kept, 'yes');
    assert.equal(stored.users, 0);
    assert.equal((await org.get(`/api/users/u?project=${project}`)).status, 404);
    assert.equal((await org.post('/api/group', { project: 'nope', group_id: 'g', properties: {} })).status, 404);
    assert.equal((await org.get('/api/groups')).status, 400);
    assert.equal((await org.post('/api/group', { project, group_id: 'g', properties: { ['v'.repeat(100)]: 'w'.repeat(1000) } })).status, 400, 'still 101 keys');
  });

  it('/v1/group takes the same body, the project by id or name, and answers the same', async () => {
    const { org } = await setup();
    const project = await org.project('Shop');
    const byName = await group(org, { project: 'Shop', group_id: 'acme', user_id: 'ann', properties: { plan: 'pro' } }, '/v1/group');
    assert.equal(byName.project, project);
    assert.equal(byName.users, 1);
    const byId = await group(org, { project, group_id: 'acme', properties: { seats: 2 } }, '/v1/group');
    assert.deepEqual(byId.properties, { plan: 'pro', seats: 2 });
    assert.equal((await org.post('/v1/group', { project: 'Nope', group_id: 'acme', properties: {} })).status, 404);
    assert.equal((await org.post('/v1/group', { project: 'Shop', group_id: 'acme' })).status, 400);
  });
});

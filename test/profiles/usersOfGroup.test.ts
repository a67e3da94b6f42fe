// GET /api/users?group=: a group's users, in any of the list's orders, walked page by page with the
// keyset cursor, with search; an unknown group is 404 as in the feed's group filter. A group's page
// lists its members this way, by last activity, which an identify call does not move.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();
const NOW = Math.floor(Date.now() / 1000);

async function event(org: TestOrg, project: string, userId: string, createdAt: number): Promise<void> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', user_id: userId, created_at: createdAt });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

async function join(org: TestOrg, project: string, groupId: string, userId: string): Promise<void> {
  const reply = await org.post('/api/group', { project, group_id: groupId, user_id: userId });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

async function identify(org: TestOrg, project: string, userId: string, properties: Record<string, string>): Promise<void> {
  assert.equal((await org.post('/api/identify', { project, user_id: userId, properties })).status, 200);
}

type UserPage = { users: Array<{ userId: string; lastActive?: string | null; eventCount: number }>; nextCursor: string | null };

/** Every page of the list, two users a page; each page's users as the reply has them. */
async function walk(org: TestOrg, project: string, query: string): Promise<UserPage['users']> {
  const users: UserPage['users'] = [];
  let cursor: string | null = null;
  do {
    const reply: { status: number; body: UserPage } = await org.get(
      `/api/users?project=${project}&limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    users.push(...reply.body.users);
    cursor = reply.body.nextCursor;
  } while (cursor);
  return users;
}

const idsOf = (users: UserPage['users']) => users.map((user) => user.userId);

/**
 * Group acme: ann (newest event), bob, eve, cid (oldest event), dee (identify only, no event).
 * Outside it: zed, with the newest event of all, and cid's second group "globex" with fay.
 */
async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  const project = await org.project();
  for (const userId of ['ann', 'bob', 'cid', 'dee', 'eve']) await join(org, project, 'acme', userId);
  await join(org, project, 'globex', 'cid');
  await join(org, project, 'globex', 'fay');
  await event(org, project, 'ann', NOW - 50);
  await event(org, project, 'bob', NOW - 200);
  await event(org, project, 'bob', NOW - 900);
  await event(org, project, 'cid', NOW - 3000);
  await event(org, project, 'eve', NOW - 400);
  await event(org, project, 'zed', NOW - 10);
  await event(org, project, 'fay', NOW - 20);
  await identify(org, project, 'ann', { name: 'Ann Lee' });
  return { org, project };
}

describe('the users of a group (GET /api/users?group=)', () => {
  it("lists only the group's users by last activity, page by page, each with lastActive; a bulk identify does not reorder them", async () => {
    const { org, project } = await setup();
    const expected = ['ann', 'bob', 'eve', 'cid', 'dee'];
    const walked = await walk(org, project, '&sort=lastActive&group=acme');
    assert.deepEqual(idsOf(walked), expected);
    const times: Array<string | null> = [NOW - 50, NOW - 200, NOW - 400, NOW - 3000].map((at) => new Date(at * 1000).toISOString());
    assert.deepEqual(
      walked.map((user) => user.lastActive),
      [...times, null],
      'dee, who has no event, comes last',
    );
    assert.deepEqual(
      walked.map((user) => user.eventCount),
      [1, 2, 1, 1, 0],
    );

    // A nightly sync of properties: every member identified now, the oldest last.
    for (const userId of ['ann', 'bob', 'eve', 'dee', 'cid']) await identify(org, project, userId, { plan: 'pro' });
    assert.deepEqual(idsOf(await walk(org, project, '&sort=lastActive&group=acme')), expected, 'identify calls are not activity');
    assert.equal(idsOf(await walk(org, project, '&group=acme'))[0], 'cid', 'last seen (the default order) counts them');
  });

  it("combines with the other orders and search, and a cursor of the group's list goes on in the group", async () => {
    const { org, project } = await setup();
    assert.deepEqual(idsOf(await walk(org, project, '&sort=events&group=acme')), ['bob', 'eve', 'cid', 'ann', 'dee']);
    assert.deepEqual(idsOf(await walk(org, project, '&sort=firstSeen&group=globex')), ['fay', 'cid']);
    assert.deepEqual(
      idsOf(await walk(org, project, '&sort=lastActive&group=acme&search=e')),
      ['ann', 'eve', 'dee'],
      'search matches ids and property values (Ann Lee)',
    );
    const first = await org.get(`/api/users?project=${project}&sort=lastActive&group=acme&limit=3`);
    assert.deepEqual(idsOf(first.body.users), ['ann', 'bob', 'eve']);
    const next = await org.get(`/api/users?project=${project}&sort=lastActive&group=acme&limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual(idsOf(next.body.users), ['cid', 'dee']);
    assert.equal(next.body.nextCursor, null);
  });

  it('answers an unknown group 404 and an empty group parameter 400, as the feed does; a group without users is an empty list', async () => {
    const { org, project } = await setup();
    for (const url of [`/api/users?project=${project}&group=nobody`, `/api/events?project=${project}&group=nobody`]) {
      const reply = await org.get(url);
      assert.equal(reply.status, 404, url);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.equal((await org.get(`/api/users?project=${project}&group=`)).status, 400);
    assert.equal((await org.post('/api/group', { project, group_id: 'empty', properties: { plan: 'free' } })).status, 200);
    assert.deepEqual((await org.get(`/api/users?project=${project}&sort=lastActive&group=empty`)).body, { users: [], nextCursor: null });

    // Another project's group, and another organization's, are not found.
    const otherProject = await org.project('other');
    assert.equal((await org.get(`/api/users?project=${otherProject}&group=acme`)).status, 404);
    const stranger = await t.org();
    const strangerProject = await stranger.project();
    assert.equal((await stranger.get(`/api/users?project=${strangerProject}&group=acme`)).status, 404);
    assert.equal((await stranger.get(`/api/users?project=${project}&group=acme`)).status, 404);
  });
});

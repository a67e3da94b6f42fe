// GET /api/users?sort=: last seen (the default), first seen (newest users first) and most events
// first, each walked page by page with its own keyset cursor; never-seen users come last.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();
const NOW = Math.floor(Date.now() / 1000);

async function event(org: TestOrg, project: string, userId: string, createdAt: number): Promise<void> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', user_id: userId, created_at: createdAt });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

/** Every page of the list in `sort`'s order, two users a page. */
async function walk(org: TestOrg, project: string, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const reply: { status: number; body: { users: Array<{ userId: string }>; nextCursor: string | null } } = await org.get(
      `/api/users?project=${project}&limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    ids.push(...reply.body.users.map((u) => u.userId));
    cursor = reply.body.nextCursor;
  } while (cursor);
  return ids;
}

/** ann: oldest, 3 events, seen lately; bob: newest, 1 event; cid: 2 events; dee and eve: 2 events, a tie; gus: never seen. */
async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  const project = await org.project();
  for (const at of [NOW - 5000, NOW - 100, NOW - 50]) await event(org, project, 'ann', at);
  await event(org, project, 'bob', NOW - 200);
  for (const at of [NOW - 3000, NOW - 2500]) await event(org, project, 'cid', at);
  for (const at of [NOW - 4000, NOW - 400]) await event(org, project, 'dee', at);
  for (const at of [NOW - 4000, NOW - 300]) await event(org, project, 'eve', at);
  // A user whose only event is deleted is never seen: identify made no sighting either.
  await event(org, project, 'gus', NOW - 10);
  const [gusEvent] = (await org.get(`/api/events?project=${project}&user_id=gus`)).body.events;
  assert.equal((await org.post(`/api/events/${gusEvent.id}/delete`)).status, 200);
  return { org, project };
}

describe('sorting the users list', () => {
  it('sorts by last seen by default and with sort=lastSeen', async () => {
    const { org, project } = await setup();
    const expected = ['ann', 'bob', 'eve', 'dee', 'cid', 'gus'];
    assert.deepEqual(await walk(org, project, ''), expected);
    assert.deepEqual(await walk(org, project, '&sort=lastSeen'), expected);
  });

  it('sorts by last activity, which identify calls do not move, each user with lastActive (issue 49, point 9)', async () => {
    const { org, project } = await setup();
    // A bulk identify: every user's properties change now, none of them did anything.
    for (const userId of ['cid', 'dee']) assert.equal((await org.post('/api/identify', { project, user_id: userId, properties: { plan: 'pro' } })).status, 200);
    assert.deepEqual((await walk(org, project, '')).slice(0, 2).sort(), ['cid', 'dee'], 'last seen counts the identify calls');
    assert.deepEqual(await walk(org, project, '&sort=lastActive'), ['ann', 'bob', 'eve', 'dee', 'cid', 'gus']);
    const page = await org.get(`/api/users?project=${project}&sort=lastActive&limit=2`);
    assert.deepEqual(
      page.body.users.map((u: { lastActive: string }) => u.lastActive),
      [new Date((NOW - 50) * 1000).toISOString(), new Date((NOW - 200) * 1000).toISOString()],
    );
    const plain = await org.get(`/api/users?project=${project}&limit=1`);
    assert.equal('lastActive' in plain.body.users[0], false, "the other orders keep the contract's user object");
  });

  it('sorts by first seen, newest users first, ties by id descending', async () => {
    const { org, project } = await setup();
    assert.deepEqual(await walk(org, project, '&sort=firstSeen'), ['bob', 'cid', 'eve', 'dee', 'ann', 'gus']);
  });

  it('sorts by events, most first, ties by id descending, with search', async () => {
    const { org, project } = await setup();
    assert.deepEqual(await walk(org, project, '&sort=events'), ['ann', 'eve', 'dee', 'cid', 'bob', 'gus']);
    assert.deepEqual(await walk(org, project, '&sort=events&search=e'), ['eve', 'dee']);
  });

  it("a cursor of another order starts that order's first page", async () => {
    const { org, project } = await setup();
    const first = await org.get(`/api/users?project=${project}&limit=2&sort=events`);
    const mixed = await org.get(`/api/users?project=${project}&limit=2&sort=firstSeen&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual(
      mixed.body.users.map((u: { userId: string }) => u.userId),
      ['bob', 'cid'],
    );
  });

  it('refuses an unknown sort with 400 {error}', async () => {
    const { org, project } = await setup();
    const reply = await org.get(`/api/users?project=${project}&sort=name`);
    assert.equal(reply.status, 400);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });
});

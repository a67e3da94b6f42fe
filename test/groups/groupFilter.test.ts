import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();
const NOW = Math.floor(Date.now() / 1000);

async function event(org: TestOrg, project: string, body: Record<string, unknown>): Promise<number> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', ...body });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

async function join(org: TestOrg, project: string, groupId: string, userId: string): Promise<void> {
  assert.equal((await org.post('/api/group', { project, group_id: groupId, user_id: userId })).status, 200);
}

const ids = async (org: TestOrg, query: string) => {
  const reply = await org.get(`/api/events?${query}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return (reply.body.events as Array<{ id: number }>).map((e) => e.id);
};

describe('the group filter', () => {
  it("the feed's group= holds the events of the group's users, combined with the other filters and the cursor", async () => {
    const org = await t.org();
    const project = await org.project();
    await join(org, project, 'acme', 'ann');
    await join(org, project, 'acme', 'bob');
    await join(org, project, 'other', 'cid');
    const a1 = await event(org, project, { user_id: 'ann', category: 'login', created_at: NOW - 50, tags: { plan: 'pro' } });
    const b1 = await event(org, project, { user_id: 'bob', category: 'pay', created_at: NOW - 40, title: 'Paid invoice' });
    await event(org, project, { user_id: 'cid', category: 'login', created_at: NOW - 30 });
    await event(org, project, { category: 'login', created_at: NOW - 20 });
    const a2 = await event(org, project, { user_id: 'ann', category: 'pay', created_at: NOW - 10 });
    assert.deepEqual(await ids(org, `project=${project}&group=acme`), [a2, b1, a1]);
    assert.deepEqual(await ids(org, `project=${project}&group=acme&category=pay`), [a2, b1]);
    assert.deepEqual(await ids(org, `project=${project}&group=acme&tag=plan:pro`), [a1]);
    assert.deepEqual(await ids(org, `project=${project}&group=acme&user_id=bob`), [b1]);
    assert.deepEqual(await ids(org, `project=${project}&group=acme&since=${NOW - 45}`), [a2, b1]);
    assert.deepEqual(await ids(org, `project=${project}&group=acme&search=invoice`), [b1]);
    const page = await org.get(`/api/events?project=${project}&group=acme&limit=2`);
    assert.deepEqual(
      page.body.events.map((e: { id: number }) => e.id),
      [a2, b1],
    );
    assert.deepEqual(await ids(org, `project=${project}&group=acme&limit=2&cursor=${page.body.nextCursor}`), [a1]);
    // A group without users has no events.
    await org.post('/api/group', { project, group_id: 'empty', properties: {} });
    assert.deepEqual(await ids(org, `project=${project}&group=empty`), []);
  });

  it("an unknown group is 404, an empty one 400, another organization's 404", async () => {
    const org = await t.org();
    const project = await org.project();
    await join(org, project, 'acme', 'ann');
    assert.equal((await org.get(`/api/events?project=${project}&group=nope`)).status, 404);
    assert.equal((await org.get(`/api/events?project=${project}&group=`)).status, 400);
    assert.equal((await org.get(`/api/charts?project=${project}&group=nope`)).status, 404);
    const other = await t.org();
    const theirs = await other.project();
    assert.equal((await other.get(`/api/events?project=${theirs}&group=acme`)).status, 404);
  });

  it('charts take group= and count only the events of its users', async () => {
    const org = await t.org();
    const project = await org.project();
    await join(org, project, 'acme', 'ann');
    await event(org, project, { user_id: 'ann', category: 'login' });
    await event(org, project, { user_id: 'ann', category: 'pay' });
    await event(org, project, { user_id: 'zed', category: 'login' });
    await event(org, project, { category: 'login' });
    const today = (await org.get(`/api/charts?project=${project}&days=1`)).body as Record<string, Array<{ count: number }>>;
    assert.equal(today.login![0]!.count, 3);
    const grouped = (await org.get(`/api/charts?project=${project}&days=1&group=acme`)).body as Record<string, Array<{ day: string; count: number }>>;
    assert.deepEqual(Object.keys(grouped).sort(), ['login', 'pay']);
    assert.equal(grouped.login![0]!.count, 1);
    assert.equal(grouped.pay![0]!.count, 1);
    const byCategory = (await org.get(`/api/charts?project=${project}&days=1&group=acme&category=pay`)).body;
    assert.deepEqual(Object.keys(byCategory), ['pay']);
  });
});

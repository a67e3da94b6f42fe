import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

async function event(org: TestOrg, body: Record<string, unknown>): Promise<number> {
  const reply = await org.post('/api/events', { category: 'c', title: 't', ...body });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

async function ids(org: TestOrg, project: string, query: string): Promise<number[]> {
  const reply = await org.get(`/api/events?project=${project}&${query}`);
  assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
  return reply.body.events.map((e: { id: number }) => e.id);
}

describe('GET /api/events filters', () => {
  it('tag=key:value compares as text: strings, numbers as String(n), true, false, null; never objects', async () => {
    const { org, project } = await setup();
    const pro = await event(org, { project, tags: { plan: 'pro', seats: 3 } });
    const free = await event(org, { project, tags: { plan: 'free', seats: '3' } });
    const flags = await event(org, { project, tags: { beta: true, gone: null, ratio: 0.5, big: 1e21, url: 'a:b' } });
    const text = await event(org, { project, tags: { beta: 'true', gone: 'null' } });
    await event(org, { project, tags: { plan: { name: 'pro' }, list: ['x'] } });
    await event(org, { project });
    assert.deepEqual(await ids(org, project, 'tag=plan:pro'), [pro]);
    assert.deepEqual(await ids(org, project, 'tag=seats:3'), [free, pro]);
    assert.deepEqual(await ids(org, project, 'tag=beta:true'), [text, flags]);
    assert.deepEqual(await ids(org, project, 'tag=gone:null'), [text, flags]);
    assert.deepEqual(await ids(org, project, 'tag=ratio:0.5'), [flags]);
    assert.deepEqual(await ids(org, project, 'tag=big:1e%2B21'), [flags]);
    assert.deepEqual(await ids(org, project, 'tag=url:a:b'), [flags], 'split at the first colon');
    assert.deepEqual(await ids(org, project, 'tag=seats:3.0'), []);
    assert.deepEqual(await ids(org, project, 'tag=plan:'), []);
    assert.deepEqual(await ids(org, project, `tag=plan:${encodeURIComponent('{"name":"pro"}')}`), []);
    assert.deepEqual(await ids(org, project, 'tag=plan:pro&tag=seats:3'), [pro], 'every tag must match');
    assert.deepEqual(await ids(org, project, 'tag=plan:free&tag=seats:4'), []);
  });

  it('user_id, favorited, since and until filter; all combine with category, search and the cursor', async () => {
    const { org, project } = await setup();
    const base = Math.floor(Date.now() / 1000) - 1000;
    const made: number[] = [];
    for (let i = 0; i < 6; i++) {
      made.push(
        await event(org, { project, category: i % 2 ? 'odd' : 'even', title: `title ${i}`, user_id: i < 4 ? 'ann' : 'bob', created_at: base + i * 10 }),
      );
    }
    await org.post(`/api/events/${made[1]}/favorite`);
    await org.post(`/api/events/${made[2]}/favorite`);
    assert.deepEqual(await ids(org, project, 'user_id=bob'), [made[5], made[4]]);
    assert.deepEqual(await ids(org, project, 'favorited=true'), [made[2], made[1]]);
    assert.deepEqual(await ids(org, project, 'favorited=false'), [made[5], made[4], made[3], made[0]]);
    assert.deepEqual(await ids(org, project, `since=${base + 10}&until=${base + 30}`), [made[2], made[1]]);
    assert.deepEqual(await ids(org, project, `since=${base + 9.5}&until=${base + 10.5}`), [made[1]]);
    assert.deepEqual(await ids(org, project, 'user_id=ann&category=odd'), [made[3], made[1]]);
    assert.deepEqual(await ids(org, project, 'user_id=ann&favorited=false&search=title'), [made[3], made[0]]);
    const first = await org.get(`/api/events?project=${project}&user_id=ann&limit=2`);
    assert.deepEqual(
      first.body.events.map((e: { id: number }) => e.id),
      [made[3], made[2]],
    );
    assert.deepEqual(await ids(org, project, `user_id=ann&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`), [made[1], made[0]]);
  });

  it('malformed or empty values are 400', async () => {
    const { org, project } = await setup();
    for (const query of [
      'tag=plain',
      'tag=:v',
      'tag=',
      'tag=a:1&tag=bad',
      'favorited=yes',
      'favorited=',
      'since=abc',
      'since=',
      'until=1e5x',
      'until=',
      'user_id=',
    ]) {
      const reply = await org.get(`/api/events?project=${project}&${query}`);
      assert.equal(reply.status, 400, `${query}: ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
    }
  });
});

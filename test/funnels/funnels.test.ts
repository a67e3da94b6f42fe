import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

const HOUR = 3600;
const DAY = 86_400;
/** A fixed past moment well inside the default 30 days, so every test places events exactly. */
const base = Math.floor(Date.now() / 1000) - 10 * DAY;

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

interface Made {
  category: string;
  user?: string;
  at: number;
  tags?: Record<string, unknown>;
}

async function events(org: TestOrg, project: string, made: Made[]): Promise<void> {
  for (const e of made) {
    const reply = await org.post('/api/events', {
      project,
      category: e.category,
      title: `${e.category} ${e.user ?? '-'}`,
      created_at: e.at,
      ...(e.user !== undefined ? { user_id: e.user } : {}),
      ...(e.tags ? { tags: e.tags } : {}),
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  }
}

async function funnel(org: TestOrg, body: Record<string, unknown>): Promise<number[]> {
  const reply = await org.post('/api/funnels', body);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.steps.map((s: { users: number }) => s.users);
}

const steps3 = [{ category: 'signup' }, { category: 'activate' }, { category: 'pay' }];

describe('POST /api/funnels', () => {
  it('counts users who reach the steps in order, within the window of their first step', async () => {
    const { org, project } = await setup();
    await events(org, project, [
      // ann: every step in order
      { category: 'signup', user: 'ann', at: base },
      { category: 'activate', user: 'ann', at: base + HOUR },
      { category: 'pay', user: 'ann', at: base + 2 * HOUR },
      // bob: pays before activating, so stops at step 2
      { category: 'signup', user: 'bob', at: base },
      { category: 'pay', user: 'bob', at: base + HOUR },
      { category: 'activate', user: 'bob', at: base + 2 * HOUR },
      // cat: activates before signing up: only step 1
      { category: 'activate', user: 'cat', at: base },
      { category: 'signup', user: 'cat', at: base + HOUR },
      // dan: pays 8 days after signing up, outside the default 7-day window
      { category: 'signup', user: 'dan', at: base },
      { category: 'activate', user: 'dan', at: base + DAY },
      { category: 'pay', user: 'dan', at: base + 8 * DAY },
      // no user: never counts
      { category: 'signup', at: base },
      { category: 'activate', at: base + HOUR },
      { category: 'pay', at: base + 2 * HOUR },
    ]);
    assert.deepEqual(await funnel(org, { project, steps: steps3 }), [4, 3, 1]);
    assert.deepEqual(await funnel(org, { project, steps: steps3, windowSeconds: 9 * DAY }), [4, 3, 2]);
    assert.deepEqual(await funnel(org, { project, steps: steps3, windowSeconds: 60 }), [4, 0, 0]);
    assert.deepEqual(await funnel(org, { project, steps: steps3.slice(0, 2) }), [4, 3]);
    assert.deepEqual(await funnel(org, { project, steps: [{ category: 'activate' }, { category: 'signup' }] }), [4, 1]);
  });

  it('takes step 1 from the first matching event in [since, until); later steps may pass until', async () => {
    const { org, project } = await setup();
    await events(org, project, [
      { category: 'signup', user: 'ann', at: base - DAY }, // before since: ann's step 1 is her second signup
      { category: 'signup', user: 'ann', at: base + HOUR },
      { category: 'pay', user: 'ann', at: base + 2 * HOUR },
      { category: 'signup', user: 'bob', at: base + 2 * DAY }, // at until: outside
      { category: 'signup', user: 'cat', at: base + DAY },
      { category: 'pay', user: 'cat', at: base + 3 * DAY }, // after until, within the window
      { category: 'signup', user: 'dan', at: base }, // exactly since: inside
    ]);
    const steps = [{ category: 'signup' }, { category: 'pay' }];
    assert.deepEqual(await funnel(org, { project, steps, since: base, until: base + 2 * DAY }), [3, 2]);
    assert.deepEqual(await funnel(org, { project, steps, since: base, until: base + 2 * DAY, windowSeconds: DAY }), [3, 1]);
    // The first step-1 event fixes the window: ann's signup of the day before pays 25 h later.
    assert.deepEqual(await funnel(org, { project, steps, since: base - 2 * DAY, until: base + 2 * DAY, windowSeconds: DAY }), [3, 0]);
    assert.deepEqual(await funnel(org, { project, steps, since: base + 1.5 * DAY }), [1, 0], 'until defaults to now');
    assert.deepEqual(await funnel(org, { project, steps, until: base + 2 * DAY }), [3, 2], 'since defaults to 30 days before until');
    assert.deepEqual(await funnel(org, { project, steps, until: base - 31 * DAY + HOUR }), [0, 0]);
  });

  it('uses the last 30 days by default', async () => {
    const { org, project } = await setup();
    const now = Math.floor(Date.now() / 1000);
    await events(org, project, [
      { category: 'signup', user: 'old', at: now - 31 * DAY },
      { category: 'pay', user: 'old', at: now - 31 * DAY + HOUR },
      { category: 'signup', user: 'new', at: now - 29 * DAY },
      { category: 'pay', user: 'new', at: now - 29 * DAY + HOUR },
      { category: 'signup', user: 'now', at: now - 5 },
    ]);
    assert.deepEqual(await funnel(org, { project, steps: [{ category: 'signup' }, { category: 'pay' }] }), [2, 1]);
  });

  it('counts each user once, however many events, and one event never serves two steps', async () => {
    const { org, project } = await setup();
    await events(org, project, [
      { category: 'view', user: 'ann', at: base },
      { category: 'view', user: 'ann', at: base + 1 },
      { category: 'view', user: 'ann', at: base + 2 },
      { category: 'view', user: 'bob', at: base },
      { category: 'view', user: 'bob', at: base + 5 },
      { category: 'view', user: 'cat', at: base },
    ]);
    const views = (n: number) => Array.from({ length: n }, () => ({ category: 'view' }));
    assert.deepEqual(await funnel(org, { project, steps: views(2) }), [3, 2]);
    assert.deepEqual(await funnel(org, { project, steps: views(4) }), [3, 2, 1, 0]);
    assert.deepEqual(await funnel(org, { project, steps: [{}, {}, {}] }), [3, 2, 1], '{} matches every event');
  });

  it('takes ten steps', async () => {
    const { org, project } = await setup();
    const made: Made[] = [];
    for (let i = 1; i <= 10; i++) made.push({ category: `s${i}`, user: 'ann', at: base + i * 60 });
    for (let i = 1; i <= 6; i++) made.push({ category: `s${i}`, user: 'bob', at: base + i * 60 });
    made.push({ category: 's8', user: 'bob', at: base + 600 });
    await events(org, project, made);
    const steps = Array.from({ length: 10 }, (_, i) => ({ category: `s${i + 1}` }));
    assert.deepEqual(await funnel(org, { project, steps }), [2, 2, 2, 2, 2, 2, 1, 1, 1, 1]);
  });

  it('matches tags as the feed does: text comparison, every pair, with the category', async () => {
    const { org, project } = await setup();
    await events(org, project, [
      { category: 'signup', user: 'ann', at: base, tags: { plan: 'pro', seats: 3 } },
      { category: 'signup', user: 'bob', at: base, tags: { plan: 'pro', seats: '3' } },
      { category: 'signup', user: 'cat', at: base, tags: { plan: 'free', beta: true } },
      { category: 'signup', user: 'dan', at: base, tags: { plan: { name: 'pro' } } },
      { category: 'pay', user: 'ann', at: base + 60, tags: { plan: 'pro' } },
      { category: 'pay', user: 'bob', at: base + 60 },
      { category: 'upgrade', user: 'cat', at: base + 60, tags: { beta: 'true' } },
    ]);
    assert.deepEqual(await funnel(org, { project, steps: [{ tags: { plan: 'pro' } }, { category: 'pay' }] }), [2, 2]);
    assert.deepEqual(await funnel(org, { project, steps: [{ tags: { seats: 3 } }, { tags: { plan: 'pro' } }] }), [2, 1]);
    assert.deepEqual(await funnel(org, { project, steps: [{ tags: { seats: '3', plan: 'pro' } }, { category: 'pay', tags: {} }] }), [2, 2]);
    assert.deepEqual(await funnel(org, { project, steps: [{ category: 'signup', tags: { beta: true } }, { tags: { beta: 'true' } }] }), [1, 1]);
    assert.deepEqual(await funnel(org, { project, steps: [{ category: 'pay', tags: { plan: 'pro' } }, {}] }), [1, 0]);
  });

  it('takes a later step with a category and tags from its earliest event that has both, within the window', async () => {
    const { org, project } = await setup();
    await events(org, project, [
      // ann: a pay event without the tag first, then one with it: reaches step 3 through the second.
      { category: 'signup', user: 'ann', at: base },
      { category: 'activate', user: 'ann', at: base + HOUR },
      { category: 'pay', user: 'ann', at: base + 2 * HOUR, tags: { plan: 'free' } },
      { category: 'pay', user: 'ann', at: base + 3 * HOUR, tags: { plan: 'pro' } },
      { category: 'refund', user: 'ann', at: base + 4 * HOUR },
      // bob: the tagged pay event comes before activating: it does not count for step 3.
      { category: 'signup', user: 'bob', at: base },
      { category: 'pay', user: 'bob', at: base + HOUR, tags: { plan: 'pro' } },
      { category: 'activate', user: 'bob', at: base + 2 * HOUR },
      { category: 'pay', user: 'bob', at: base + 3 * HOUR, tags: { plan: 'free' } },
      // cat: the tagged pay event is past the window of her signup.
      { category: 'signup', user: 'cat', at: base },
      { category: 'activate', user: 'cat', at: base + HOUR },
      { category: 'pay', user: 'cat', at: base + 2 * DAY, tags: { plan: 'pro' } },
      // dan: the tags match on another category only.
      { category: 'signup', user: 'dan', at: base },
      { category: 'activate', user: 'dan', at: base + HOUR },
      { category: 'upgrade', user: 'dan', at: base + 2 * HOUR, tags: { plan: 'pro' } },
      // Without a user, never.
      { category: 'pay', at: base + 2 * HOUR, tags: { plan: 'pro' } },
    ]);
    const steps = [{ category: 'signup' }, { category: 'activate' }, { category: 'pay', tags: { plan: 'pro' } }];
    assert.deepEqual(await funnel(org, { project, steps, windowSeconds: DAY }), [4, 4, 1]);
    // The step after it starts from ann's tagged event, not from her first pay event.
    const four = [...steps, { category: 'refund' }];
    assert.deepEqual(await funnel(org, { project, steps: four, windowSeconds: DAY }), [4, 4, 1, 1]);
    const late = [...steps.slice(0, 2), { category: 'pay', tags: { plan: 'pro' } }, { category: 'pay', tags: { plan: 'free' } }];
    assert.deepEqual(await funnel(org, { project, steps: late, windowSeconds: DAY }), [4, 4, 1, 0]);
  });

  it("answers 400 for every bad field, 404 for another organization's project", async () => {
    const { org, project } = await setup();
    const two = [{ category: 'a' }, { category: 'b' }];
    const bad: Array<Record<string, unknown>> = [
      { steps: two },
      { project: '', steps: two },
      { project: 5, steps: two },
      { project },
      { project, steps: 'a' },
      { project, steps: [{ category: 'a' }] },
      { project, steps: Array.from({ length: 11 }, () => ({})) },
      { project, steps: [{ category: 'a' }, null] },
      { project, steps: [{ category: 'a' }, []] },
      { project, steps: [{ category: 'a' }, 'b'] },
      { project, steps: [{ category: '' }, {}] },
      { project, steps: [{ category: 5 }, {}] },
      { project, steps: [{ category: 'x'.repeat(101) }, {}] },
      { project, steps: [{ categroy: 'a' }, {}] },
      { project, steps: [{ tags: [] }, {}] },
      { project, steps: [{ tags: 'plan:pro' }, {}] },
      { project, steps: [{ tags: { '': 'x' } }, {}] },
      { project, steps: [{ tags: { plan: { name: 'pro' } } }, {}] },
      { project, steps: two, windowSeconds: 59 },
      { project, steps: two, windowSeconds: 31_536_001 },
      { project, steps: two, windowSeconds: 600.5 },
      { project, steps: two, windowSeconds: '600' },
      { project, steps: two, since: 'yesterday' },
      { project, steps: two, until: '1700000000' },
      { project, steps: two, since: base, until: base },
      { project, steps: two, since: base + 1, until: base },
    ];
    for (const body of bad) {
      const reply = await org.post('/api/funnels', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(typeof reply.body.error, 'string');
    }
    const notJson = await t.request({
      method: 'POST',
      url: '/api/funnels',
      payload: '[',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(notJson.status, 400);
    assert.deepEqual(await funnel(org, { project, steps: two, windowSeconds: 60 }), [0, 0]);
    assert.deepEqual(await funnel(org, { project, steps: two, windowSeconds: 31_536_000 }), [0, 0]);

    const other = await t.org();
    assert.equal((await other.post('/api/funnels', { project, steps: two })).status, 404);
    assert.equal((await org.post('/api/funnels', { project: 'prj_missing', steps: two })).status, 404);
    assert.equal((await t.request({ method: 'POST', url: '/api/funnels', body: { project, steps: two } })).status, 401);
  });
});

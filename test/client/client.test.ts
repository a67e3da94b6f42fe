import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Eventlog, EventlogError } from '../../client/src/index.ts';
import { buildUrl } from '../../client/src/request.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { listen, proxies } from './support.ts';

const t = useTestApp();
const server = listen(t);
const proxy = proxies();

async function setup(extra: { retryDelayMs?: number } = {}): Promise<{ org: TestOrg; project: string; log: Eventlog }> {
  const org = await t.org();
  const project = await org.project();
  return { org, project, log: new Eventlog({ token: org.key, project, baseUrl: await server.url(), retryDelayMs: extra.retryDelayMs ?? 10 }) };
}

async function events(org: TestOrg, project: string) {
  return (await org.get(`/api/events?project=${project}&limit=100`)).body.events as Array<Record<string, unknown>>;
}

describe('@eventlog/client against a running server', () => {
  it('track creates the event with LogSnag-style field names and answers the event object', async () => {
    const { org, project, log } = await setup();
    const event = await log.track({
      category: 'signups',
      title: 'New user',
      icon: '🎉',
      tags: { plan: 'pro' },
      notify: true,
      userId: 'u_42',
      timestamp: new Date('2024-01-02T03:04:05.678Z'),
    });
    assert.ok(event);
    assert.equal(event.title, 'New user');
    assert.equal(event.user_id, 'u_42');
    assert.deepEqual(event.tags, { plan: 'pro' });
    assert.equal(event.notify, true);
    assert.equal(event.createdAt, '2024-01-02T03:04:05.678Z');
    assert.deepEqual((await events(org, project))[0], event);
  });

  it('events.list walks every keyset page, newest first, with its filters', async () => {
    const { project, log } = await setup();
    for (let i = 1; i <= 7; i++) await log.track({ category: i % 2 ? 'odd' : 'even', title: `#${i}` });
    const titles: string[] = [];
    for await (const event of log.events.list({ pageSize: 2 })) titles.push(event.title);
    assert.deepEqual(titles, ['#7', '#6', '#5', '#4', '#3', '#2', '#1']);
    const odd: string[] = [];
    for await (const event of log.events.list({ category: 'odd', pageSize: 3 })) odd.push(event.title);
    assert.deepEqual(odd, ['#7', '#5', '#3', '#1']);
    assert.ok(project);
  });

  it('serializes repeatable parameters as repeated keys', () => {
    const url = new URL(buildUrl('http://x.test/base', 'api/events', { tag: ['plan:pro', 'env:prod'], project: 'p', cursor: undefined }));
    assert.equal(url.pathname, '/base/api/events');
    assert.deepEqual(url.searchParams.getAll('tag'), ['plan:pro', 'env:prod']);
    assert.equal(url.searchParams.has('cursor'), false);
  });

  it('funnels.query counts users per step; charts.get takes tag filters and groupBy', async () => {
    const { log } = await setup();
    const now = Math.floor(Date.now() / 1000);
    await log.track({ category: 'signup', title: 'a', userId: 'ann', tags: { plan: 'pro' }, timestamp: now - 60 });
    await log.track({ category: 'signup', title: 'b', userId: 'bob', tags: { plan: 'free' }, timestamp: now - 60 });
    await log.track({ category: 'pay', title: 'c', userId: 'ann', tags: { plan: 'pro' }, timestamp: now - 30 });
    assert.deepEqual(await log.funnels.query({ steps: [{ category: 'signup' }, { category: 'pay' }] }), { steps: [{ users: 2 }, { users: 1 }] });
    assert.deepEqual(await log.funnels.query({ steps: [{ tags: { plan: 'free' } }, { category: 'pay' }], windowSeconds: 60 }), {
      steps: [{ users: 1 }, { users: 0 }],
    });
    const byPlan = await log.charts.get({ groupBy: 'plan', days: 1 });
    assert.deepEqual(Object.keys(byPlan ?? {}), ['free', 'pro']);
    assert.equal(byPlan?.pro?.[0]?.count, 2);
    const pro = await log.charts.get({ tags: ['plan:pro'], category: 'signup' });
    assert.deepEqual(Object.keys(pro ?? {}), ['signup']);
    assert.equal(pro?.signup?.[0]?.count, 1);
  });

  it('insight.track sets an insight', async () => {
    const { org, project, log } = await setup();
    assert.deepEqual(await log.insight.track({ title: 'MRR', value: 4200, icon: '💰' }), { ok: true });
    const insights = (await org.get(`/api/insights?project=${project}`)).body;
    assert.equal(insights[0].title, 'MRR');
    assert.equal(insights[0].value, '4200');
  });

  it("throws EventlogError with the status and the server's error", async () => {
    const { log, org } = await setup();
    const unknown = new Eventlog({ token: org.key, project: 'nope', baseUrl: await server.url() });
    await assert.rejects(unknown.track({ category: 'c', title: 'x' }), (error: unknown) => {
      assert.ok(error instanceof EventlogError);
      assert.equal(error.status, 404);
      assert.equal(error.message, 'Project not found');
      return true;
    });
    await assert.rejects(log.track({ category: '', title: 'x' }), (error: unknown) => error instanceof EventlogError && error.status === 400);
    const badKey = new Eventlog({ token: 'ev_wrong', project: 'p', baseUrl: await server.url() });
    await assert.rejects(badKey.events.list().next(), (error: unknown) => error instanceof EventlogError && error.status === 401);
  });

  it('disabled: every call is a no-op that sends nothing', async () => {
    const fetch = () => {
      throw new Error('a disabled client must not send');
    };
    const log = new Eventlog({ project: 'p', disabled: true, fetch });
    assert.equal(await log.track({ category: 'c', title: 't' }), undefined);
    assert.equal(await log.identify('u', { a: 1 }), undefined);
    assert.equal(await log.insight.track({ title: 't', value: 1 }), undefined);
    assert.equal(await log.insight.increment({ title: 't', value: 1 }), undefined);
    const listed = [];
    for await (const event of log.events.list()) listed.push(event);
    assert.deepEqual(listed, []);
  });

  it('retries track after a dropped connection with the same key, creating exactly one event', async () => {
    const { org, project } = await setup();
    const flaky = await proxy(await server.url(), (n) => (n === 1 ? 'forward-then-drop' : 'forward'));
    const log = new Eventlog({ token: org.key, project, baseUrl: flaky.url, retryDelayMs: 10 });
    const event = await log.track({ category: 'c', title: 'Exactly once' });
    assert.equal(event?.title, 'Exactly once');
    assert.equal(flaky.seen.length, 2);
    assert.ok(flaky.seen[0]!.key && flaky.seen[0]!.key === flaky.seen[1]!.key, 'the retry reuses the Idempotency-Key');
    const stored = await events(org, project);
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.id, event?.id);
    // Each call has its own key.
    await log.track({ category: 'c', title: 'Another' });
    assert.notEqual(flaky.seen[2]!.key, flaky.seen[0]!.key);
  });

  it('honours Retry-After on 429 and retries 5xx, at most 4 attempts in all', async () => {
    const { org, project } = await setup();
    const limited = await proxy(await server.url(), (n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : n === 2 ? { status: 503 } : 'forward',
    );
    const log = new Eventlog({ token: org.key, project, baseUrl: limited.url, retryDelayMs: 10 });
    await log.track({ category: 'c', title: 'After a wait' });
    assert.equal(limited.seen.length, 3);
    assert.ok(limited.seen[1]!.at - limited.seen[0]!.at >= 950, 'waited for Retry-After');
    assert.equal((await events(org, project)).length, 1);

    const down = await proxy(await server.url(), () => ({ status: 502, body: { error: 'Bad gateway' } }));
    const failing = new Eventlog({ token: org.key, project, baseUrl: down.url, retryDelayMs: 5 });
    await assert.rejects(
      failing.track({ category: 'c', title: 'x' }),
      (error: unknown) => error instanceof EventlogError && error.status === 502 && error.message === 'Bad gateway',
    );
    assert.equal(down.seen.length, 4);
    await assert.rejects(failing.insight.track({ title: 'x', value: 1 }), EventlogError);
    assert.equal(down.seen.length, 8, 'insight.track retries too');
  });

  it('never retries insight.increment, and does not retry a 4xx', async () => {
    const { org, project } = await setup();
    const down = await proxy(await server.url(), () => ({ status: 503 }));
    const log = new Eventlog({ token: org.key, project, baseUrl: down.url, retryDelayMs: 5 });
    await assert.rejects(
      log.insight.increment({ title: 'Signups today', value: 1 }),
      (error: unknown) => error instanceof EventlogError && error.status === 503,
    );
    assert.equal(down.seen.length, 1);
    assert.equal(down.seen[0]!.method, 'PATCH');
    assert.deepEqual(JSON.parse(down.seen[0]!.body), { project, title: 'Signups today', value: { $inc: 1 } });

    const direct = await proxy(await server.url(), () => 'forward');
    const bad = new Eventlog({ token: org.key, project, baseUrl: direct.url, retryDelayMs: 5 });
    await assert.rejects(bad.track({ category: '', title: 'x' }), EventlogError);
    assert.equal(direct.seen.length, 1);
  });

  it('identify posts the user and properties to /api/identify', async (context) => {
    const { org, project } = await setup();
    const direct = await proxy(await server.url(), () => 'forward');
    const log = new Eventlog({ token: org.key, project, baseUrl: direct.url, retryDelayMs: 5 });
    const result = await log.identify('u_42', { plan: 'pro', seats: 3 }).catch((error: unknown) => error);
    assert.equal(direct.seen[0]!.path, '/api/identify');
    assert.deepEqual(JSON.parse(direct.seen[0]!.body), { project, user_id: 'u_42', properties: { plan: 'pro', seats: 3 } });
    if (result instanceof EventlogError && result.status === 404 && result.message.startsWith('Route')) {
      context.skip('POST /api/identify is not on this server yet');
      return;
    }
    assert.deepEqual(result, { ok: true });
  });
});

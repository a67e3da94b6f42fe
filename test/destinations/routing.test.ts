import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type Answer, startReceiver, startWorker } from './support.ts';
import { sleep, waitUntil } from '../wait.ts';

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' }, { ownDatabase: true });

// One attempt per delivery: a delivery's failure is final at once.
const ONE_ATTEMPT = { retryDelaysMs: [] };

async function destination(tc: TestContext, org: TestOrg, project: string, answers: Answer[] = [200], extra: Record<string, unknown> = {}) {
  const receiver = await startReceiver(answers);
  tc.after(() => receiver.close());
  const created = await org.post(`/api/projects/${project}/destinations`, { name: 'r', url: receiver.url, format: 'json', ...extra });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { receiver, id: created.body.id as string };
}

function worker(tc: TestContext, options = {}) {
  const started = startWorker(t, options);
  tc.after(() => started.stop());
  return started;
}

const patch = (org: TestOrg, id: string, body: unknown) =>
  t.request({ method: 'PATCH', url: `/api/destinations/${id}`, body, headers: { authorization: `Bearer ${org.key}` } });

async function notify(org: TestOrg, project: string, category = 'deploys') {
  const reply = await org.post('/api/events', { project, category, title: `${category} happened`, notify: true });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body as { id: number };
}

/** The whole attempt log, newest first, page after page. */
async function log(org: TestOrg, id: string) {
  const rows: Array<{ id: string; eventId: number; webhookId: string; status: string; attempts: Array<{ error: string | null }> }> = [];
  let cursor: string | null = null;
  do {
    const reply = await org.get(`/api/destinations/${id}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(reply.status, 200);
    rows.push(...reply.body.deliveries);
    cursor = reply.body.nextCursor;
  } while (cursor);
  return rows;
}

/** Waits until the log holds `count` deliveries, none pending. */
async function settled(org: TestOrg, id: string, count: number) {
  await waitUntil(
    async () => {
      const rows = await log(org, id);
      return rows.length >= count && rows.every((d) => d.status !== 'pending');
    },
    { timeoutMs: 15_000, message: `${count} settled deliveries` },
  );
  return log(org, id);
}

async function shown(org: TestOrg, project: string, id: string) {
  return (await org.get(`/api/projects/${project}/destinations`)).body.find((d: { id: string }) => d.id === id);
}

describe('routing by category', () => {
  it('only matching notify events are delivered, each exactly once; null takes every category', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const payments = await destination(tc, org, project, [200], { categories: ['payments', 'refunds'] });
    const everything = await destination(tc, org, project);
    // Queued before any worker runs: the outbox survives until a worker (a restarted process) takes it.
    const paid = await notify(org, project, 'payments');
    await notify(org, project, 'deploys');
    const refund = await notify(org, project, 'refunds');
    worker(tc);
    await everything.receiver.waitFor(3);
    await payments.receiver.waitFor(2);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    const eventIds = payments.receiver.received.map((r) => JSON.parse(r.body).event.id).sort();
    assert.deepEqual(eventIds, [paid.id, refund.id].sort());
    assert.equal(everything.receiver.received.length, 3);
    assert.equal((await log(org, payments.id)).length, 2, 'no delivery row for a non-matching event');
  });

  it('PATCH changes the filter for the events that follow, and checks its input', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const target = await destination(tc, org, project);
    assert.equal((await patch(org, target.id, { categories: [] })).status, 400);
    assert.equal((await patch(org, target.id, { categories: [''] })).status, 400);
    assert.equal((await patch(org, target.id, { name: '  ' })).status, 400);
    assert.equal((await patch(org, target.id, { url: 'ftp://example.com/' })).status, 400);
    assert.equal((await patch(org, 'nope', { name: 'x' })).status, 404);
    const other = await t.org();
    assert.equal((await patch(other, target.id, { name: 'x' })).status, 404, "another organization's destination");

    const changed = await patch(org, target.id, { name: 'Alerts', categories: ['alerts', 'alerts'] });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.name, 'Alerts');
    assert.deepEqual(changed.body.categories, ['alerts']);
    worker(tc);
    await notify(org, project, 'deploys');
    const alert = await notify(org, project, 'alerts');
    await target.receiver.waitFor(1);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.deepEqual(
      target.receiver.received.map((r) => JSON.parse(r.body).event.id),
      [alert.id],
    );

    const back = await patch(org, target.id, { categories: null });
    assert.equal(back.body.categories, null);
    assert.equal(back.body.name, 'Alerts', 'fields left out stay as they were');
    await notify(org, project, 'deploys');
    await target.receiver.waitFor(2);
  });
});

describe('automatic disable', () => {
  it('the 20th consecutive final failure disables, the 19th does not, and a success resets the run', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const target = await destination(tc, org, project, [500]);
    worker(tc, ONE_ATTEMPT);
    for (let i = 0; i < 19; i++) await notify(org, project);
    await settled(org, target.id, 19);
    // A Test delivery neither counts nor resets.
    assert.equal((await org.post(`/api/destinations/${target.id}/test`)).body.ok, false);
    assert.equal((await shown(org, project, target.id)).enabled, true, 'the 19th does not disable');

    target.receiver.answers = [200];
    await notify(org, project);
    await settled(org, target.id, 21);
    target.receiver.answers = [500];
    for (let i = 0; i < 19; i++) await notify(org, project);
    await settled(org, target.id, 40);
    assert.equal((await shown(org, project, target.id)).enabled, true, 'the success reset the run');

    await notify(org, project);
    await settled(org, target.id, 41);
    const disabled = await shown(org, project, target.id);
    assert.equal(disabled.enabled, false);
    assert.match(disabled.disabledReason, /20 consecutive failed deliveries \(last: HTTP 500\)/);

    const received = target.receiver.received.length;
    await notify(org, project);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(400);
    assert.equal(target.receiver.received.length, received, 'a disabled destination gets nothing new');

    const enabled = await org.post(`/api/destinations/${target.id}/enable`);
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabledReason, null);
    // The run starts again from zero: one more failure does not disable.
    await notify(org, project);
    await target.receiver.waitFor(received + 1);
    await settled(org, target.id, 42);
    assert.equal((await shown(org, project, target.id)).enabled, true);
  });

  it('deliveries still queued when it disables itself end as "Not sent"', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const target = await destination(tc, org, project, [500]);
    // Retries far apart: the 21st delivery is still waiting for its second attempt when the run completes.
    const started = worker(tc, { retryDelaysMs: [4000] });
    await notify(org, project);
    await target.receiver.waitFor(1);
    target.receiver.answers = [500];
    await started.stop();
    const fast = worker(tc, ONE_ATTEMPT);
    for (let i = 0; i < 20; i++) await notify(org, project);
    await waitUntil(async () => (await shown(org, project, target.id)).enabled === false, { timeoutMs: 15_000, message: 'the automatic disable' });
    fast.wake();
    const rows = await settled(org, target.id, 21);
    assert.equal(rows.filter((d) => d.status === 'failed').length, 21);
    const first = rows.at(-1);
    assert.match(first?.attempts.at(-1)?.error ?? '', /Not sent: the destination was disabled/);
  });
});

describe('replay of every failure', () => {
  it('counts the events whose latest delivery since then failed and re-delivers them with the same webhook-id', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const target = await destination(tc, org, project, [500]);
    const first = worker(tc, ONE_ATTEMPT);
    const before = Math.floor(Date.now() / 1000) - 1;
    await notify(org, project);
    await settled(org, target.id, 1);
    target.receiver.answers = [200];
    await notify(org, project);
    await settled(org, target.id, 2);
    target.receiver.answers = [500];
    await notify(org, project);
    await settled(org, target.id, 3);
    const failed = (await log(org, target.id)).filter((d) => d.status === 'failed');
    assert.equal(failed.length, 2);

    const future = await org.post(`/api/destinations/${target.id}/replay-failed`, { since: Math.floor(Date.now() / 1000) + 60 });
    assert.deepEqual(future.body, { queued: 0 });
    assert.equal((await org.post(`/api/destinations/${target.id}/replay-failed`, { since: -1 })).status, 400);
    assert.equal((await org.post(`/api/destinations/${target.id}/replay-failed`, {})).status, 400);
    assert.equal((await org.post('/api/destinations/nope/replay-failed', { since: 0 })).status, 404);

    // Queued while no worker runs; the next process delivers them.
    await first.stop();
    target.receiver.answers = [200];
    const replay = await org.post(`/api/destinations/${target.id}/replay-failed`, { since: before });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, { queued: 2 });
    const again = await org.post(`/api/destinations/${target.id}/replay-failed`, { since: before });
    assert.deepEqual(again.body, { queued: 0 }, 'their latest delivery is now the pending replay');
    worker(tc, ONE_ATTEMPT);
    await settled(org, target.id, 5);
    const replayedIds = target.receiver.received
      .slice(3)
      .map((r) => r.headers['webhook-id'])
      .sort();
    assert.deepEqual(replayedIds, failed.map((d) => d.webhookId).sort());
    const bodies = target.receiver.received
      .slice(3)
      .map((r) => r.body)
      .sort();
    const firstBodies = target.receiver.received.slice(0, 3).filter((r) => failed.some((f) => f.webhookId === r.headers['webhook-id']));
    assert.deepEqual(bodies, firstBodies.map((r) => r.body).sort(), 'the same bodies');
    assert.deepEqual((await org.post(`/api/destinations/${target.id}/replay-failed`, { since: before })).body, { queued: 0 });

    const health = await org.get(`/api/destinations/${target.id}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { window: 50, deliveries: 5, succeeded: 3, successRate: 0.6 });

    await org.post(`/api/destinations/${target.id}/disable`);
    assert.equal((await org.post(`/api/destinations/${target.id}/replay-failed`, { since: before })).status, 400);
  });

  it('health is null before the first delivery and 404 for another organization', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const target = await destination(tc, org, project);
    assert.deepEqual((await org.get(`/api/destinations/${target.id}/health`)).body, { window: 50, deliveries: 0, succeeded: 0, successRate: null });
    const other = await t.org();
    assert.equal((await other.get(`/api/destinations/${target.id}/health`)).status, 404);
    assert.equal((await other.post(`/api/destinations/${target.id}/replay-failed`, { since: 0 })).status, 404);
  });

  it("an alert's events reach the destinations of the alert's category, like any notify event", async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const ops = await destination(tc, org, project, [200], { categories: ['ops'] });
    const errors = await destination(tc, org, project, [200], { categories: ['errors'] });
    const alert = await org.post(`/api/projects/${project}/alerts`, {
      name: 'Errors',
      filter: { category: 'errors' },
      condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
      category: 'ops',
    });
    assert.equal(alert.status, 201, JSON.stringify(alert.body));
    // Not a notify event itself: only the alert's firing event is for destinations.
    assert.equal((await org.post('/api/events', { project, category: 'errors', title: 'boom' })).status, 201);
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    worker(tc, ONE_ATTEMPT);
    const [delivered] = await settled(org, ops.id, 1);
    const body = JSON.parse(ops.receiver.received[0]!.body);
    assert.equal(delivered!.status, 'succeeded');
    assert.deepEqual([body.event.category, body.event.tags], ['ops', { alert: alert.body.id, state: 'firing' }]);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(errors.receiver.received.length, 0, 'a destination of another category gets nothing');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateAlert } from '../../src/features/alerts/evaluateAlert.ts';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { findAlert } from '../../src/features/alerts/queries.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

// The evaluation of one organization at a time (evaluateOrganization), called directly so that
// each step is deterministic; alertProcesses.test.ts runs the engine as the server does.

const t = useTestApp();

async function setUp(body: Record<string, unknown>): Promise<{ org: TestOrg; project: string; alertId: string }> {
  const org = await t.org();
  const project = await org.project();
  const reply = await org.post(`/api/projects/${project}/alerts`, { name: 'Watch', ...body });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { org, project, alertId: reply.body.id };
}

async function send(org: TestOrg, project: string, event: Record<string, unknown> = {}, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    const reply = await org.post('/api/events', { project, category: 'errors', title: 'boom', ...event });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  }
}

const evaluate = (org: TestOrg) => evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
const alertOf = async (org: TestOrg, id: string) => (await org.get(`/api/alerts/${id}`)).body;
const history = async (org: TestOrg, id: string) => (await org.get(`/api/alerts/${id}/history`)).body.transitions;

async function alertEvents(org: TestOrg, project: string) {
  const page = await org.get(`/api/events?project=${project}&limit=100`);
  return page.body.events.filter((e: { tags: Record<string, unknown> | null }) => e.tags && 'alert' in e.tags && 'state' in e.tags);
}

/** Moves the alert's window start back, as if it had been created `seconds` earlier. */
async function age(org: TestOrg, alertId: string, seconds: number): Promise<void> {
  await shiftBack(org, alertId, 'window_start', seconds);
}

/**
 * Moves one of the alert's times back and makes it due now. The times are computed here: Citus
 * refuses a stable function (timestamptz arithmetic, now()) beside column references in an UPDATE.
 */
async function shiftBack(org: TestOrg, alertId: string, column: 'window_start' | 'notified_at', seconds: number): Promise<void> {
  const [row] = await t.services.sql<{ at: Date }[]>`
    SELECT ${t.services.sql(column)} AS at FROM alerts WHERE organization_id = ${org.id} AND id = ${alertId}`;
  await t.services.sql`
    UPDATE alerts SET ${t.services.sql(column)} = ${new Date(row!.at.getTime() - seconds * 1000)}, next_due_at = ${new Date()}
    WHERE organization_id = ${org.id} AND id = ${alertId}`;
}

describe('alerts: evaluation', () => {
  it('fires at the threshold with one notify event, resolves when the events leave the window', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 3, windowSeconds: 10 }, filter: { category: 'errors' } });
    await evaluate(org);
    assert.deepEqual([(await alertOf(org, alertId)).state, (await alertOf(org, alertId)).count], ['ok', 0]);
    // Dated events count only from the alert's creation on: as if it had been created a minute ago.
    await age(org, alertId, 60);
    const createdAt = Date.now() / 1000 - 7;
    await send(org, project, { created_at: createdAt }, 2);
    await send(org, project, { category: 'other' });
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).count, 2);
    await send(org, project, { created_at: createdAt });
    await evaluate(org);
    const firing = await alertOf(org, alertId);
    assert.deepEqual([firing.state, firing.count], ['firing', 3]);
    const [event] = await alertEvents(org, project);
    assert.equal(event.category, 'alerts');
    assert.equal(event.notify, true);
    assert.deepEqual(event.tags, { alert: alertId, state: 'firing' });
    assert.match(event.title, /Watch/);
    assert.match(event.description, /at least 3 `errors` events in 10 seconds/);
    assert.match(event.description, /3/);
    const [outbox] = await t.services.sql`SELECT count(*)::int AS n FROM notify_outbox WHERE organization_id = ${org.id} AND event_id = ${event.id}`;
    assert.equal(outbox!.n, 1, 'the firing event is queued for destinations and push like any notify event');

    await evaluate(org);
    assert.equal((await alertEvents(org, project)).length, 1, 'a second look changes nothing');
    // The three events were dated 7 s ago: they leave the 10 s window about 3 s from now.
    // Time itself: the window has to move past the events.
    await sleep(3500);
    await evaluate(org);
    const resolved = await alertOf(org, alertId);
    assert.deepEqual([resolved.state, resolved.count], ['ok', 0]);
    const events = await alertEvents(org, project);
    assert.deepEqual(
      events.map((e: { tags: { state: string } }) => e.tags.state),
      ['resolved', 'firing'],
    );
    assert.equal(events[0].notify, true);
    const transitions = await history(org, alertId);
    assert.deepEqual(
      transitions.map((x: { state: string; count: number }) => [x.state, x.count]),
      [
        ['ok', 0],
        ['firing', 3],
      ],
    );
    assert.equal(resolved.stateSince, transitions[0].at);
  });

  it('never counts the events alerts create', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 }, category: 'errors' });
    await send(org, project);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
    await evaluate(org);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).count, 1, 'its own firing event (same category, filter {}) is not counted');
    const preview = await org.post(`/api/projects/${project}/alerts/preview`, { windowSeconds: 60 });
    assert.equal(preview.body.count, 1);
  });

  it("a fewerThan alert cannot fire before a whole window since it was created; a dead man's switch", async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'fewerThan', threshold: 1, windowSeconds: 60 }, filter: { category: 'backup' } });
    await evaluate(org);
    assert.deepEqual([(await alertOf(org, alertId)).state, (await alertOf(org, alertId)).count], ['ok', 0]);
    // Events from before the alert existed do not count either way.
    await age(org, alertId, 30);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'ok');
    await age(org, alertId, 31);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
    assert.equal((await alertEvents(org, project))[0].tags.state, 'firing');
    await send(org, project, { category: 'backup' });
    await evaluate(org);
    assert.deepEqual([(await alertOf(org, alertId)).state, (await alertOf(org, alertId)).count], ['ok', 1]);
    assert.deepEqual(
      (await history(org, alertId)).map((x: { state: string }) => x.state),
      ['ok', 'firing'],
    );
  });

  it('the window never reaches back before a change of condition or filter', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 2, windowSeconds: 300 } });
    await send(org, project, {}, 2);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
    const changed = await t.request({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      body: { condition: { count: 'atLeast', threshold: 1, windowSeconds: 300 } },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(changed.body.count, null);
    await evaluate(org);
    const after = await alertOf(org, alertId);
    assert.deepEqual([after.state, after.count], ['ok', 0], 'the two earlier events are before the change');
    await send(org, project);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
  });

  it('muted: transitions are recorded and create no events', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } });
    await org.post(`/api/alerts/${alertId}/mute`, { until: Date.now() / 1000 + 3600 });
    await send(org, project);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
    assert.equal((await history(org, alertId)).length, 1);
    assert.equal((await alertEvents(org, project)).length, 0);
  });

  it('disabled: no evaluation, no transitions, state ok; enabling starts a new window', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 }, enabled: false });
    await send(org, project);
    await evaluate(org);
    const disabled = await alertOf(org, alertId);
    assert.deepEqual([disabled.state, disabled.count], ['ok', null]);
    assert.deepEqual(await history(org, alertId), []);
    const enabled = await t.request({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      body: { enabled: true },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(enabled.body.enabled, true);
    await evaluate(org);
    assert.deepEqual([(await alertOf(org, alertId)).state, (await alertOf(org, alertId)).count], ['ok', 0], 'the event before enabling does not count');
    await send(org, project);
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).state, 'firing');
    const off = await t.request({ method: 'PATCH', url: `/api/alerts/${alertId}`, body: { enabled: false }, headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(off.body.state, 'ok', 'a disabled alert is ok');
    await evaluate(org);
    assert.equal((await history(org, alertId)).length, 1, 'disabling records no transition');
    assert.equal((await alertEvents(org, project)).length, 1, 'and creates no event');
  });

  it('renotifySeconds: another firing event while it keeps firing, no new transition', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 600 }, renotifySeconds: 60 });
    await send(org, project);
    await evaluate(org);
    await evaluate(org);
    assert.equal((await alertEvents(org, project)).length, 1);
    await shiftBack(org, alertId, 'notified_at', 61);
    await evaluate(org);
    await evaluate(org);
    const events = await alertEvents(org, project);
    assert.deepEqual(
      events.map((e: { tags: { state: string } }) => e.tags.state),
      ['firing', 'firing'],
    );
    assert.equal((await history(org, alertId)).length, 1);
  });

  it('filters by category, tags, user and search as the feed does', async () => {
    const { org, project, alertId } = await setUp({
      condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
      filter: { category: 'pay', tags: { plan: 'pro', code: 500, ok: false }, user_id: 'u1', search: 'card' },
    });
    const match = { category: 'pay', tags: { plan: 'pro', code: '500', ok: false }, user_id: 'u1', title: 'card declined' };
    for (const miss of [{ category: 'other' }, { tags: { plan: 'free', code: 500, ok: false } }, { user_id: 'u2' }, { title: 'bank' }]) {
      await send(org, project, { ...match, ...miss });
    }
    await evaluate(org);
    assert.equal((await alertOf(org, alertId)).count, 0);
    await send(org, project, match);
    await evaluate(org);
    assert.deepEqual([(await alertOf(org, alertId)).count, (await alertOf(org, alertId)).state], [1, 'firing']);
  });

  it('two evaluations at once make one transition and one event', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } });
    await send(org, project);
    const row = (await findAlert(t.services.sql, org.id, alertId))!;
    const now = new Date();
    const outcomes = await Promise.all([1, 2, 3].map(() => evaluateAlert(t.services.sql, org.id, row, now, t.services.config.timeZone)));
    assert.equal(outcomes.filter((o) => o.transition).length, 1);
    await Promise.all([evaluate(org), evaluate(org)]);
    assert.equal((await history(org, alertId)).length, 1);
    assert.equal((await alertEvents(org, project)).length, 1);
  });

  it('pages the history newest first', async () => {
    const { org, project, alertId } = await setUp({ condition: { count: 'atLeast', threshold: 1, windowSeconds: 10 } });
    await age(org, alertId, 60);
    for (let i = 0; i < 3; i++) {
      await send(org, project, { created_at: Date.now() / 1000 - 9 });
      await evaluate(org);
      assert.equal((await alertOf(org, alertId)).state, 'firing');
      // Time itself: the event leaves the 10 s window about a second later. A loaded machine (the
      // Citus pass) can take longer between the steps, so the evaluation is repeated until it has.
      await sleep(1100);
      await waitUntil(
        async () => {
          await evaluate(org);
          return (await alertOf(org, alertId)).state === 'ok';
        },
        { timeoutMs: 10_000, intervalMs: 200, message: 'the alert back to ok once its event left the window' },
      );
    }
    const first = await org.get(`/api/alerts/${alertId}/history?limit=4`);
    assert.deepEqual(
      first.body.transitions.map((x: { state: string }) => x.state),
      ['ok', 'firing', 'ok', 'firing'],
    );
    assert.equal(typeof first.body.nextCursor, 'string');
    const second = await org.get(`/api/alerts/${alertId}/history?limit=4&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      second.body.transitions.map((x: { state: string }) => x.state),
      ['ok', 'firing'],
    );
    assert.equal(second.body.nextCursor, null);
    assert.ok(Date.parse(first.body.transitions[0].at) > Date.parse(first.body.transitions[1].at));
  });
});

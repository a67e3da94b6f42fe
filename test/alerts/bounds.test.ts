// Background work bounded per organization (decision 200): at most 1,000 alerts per organization,
// filters' searches of at most 1,000 characters, and an organization whose evaluation is slow
// does not hold back another's alert beyond the contract's 15 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AlertEngine } from '../../src/features/alerts/alertEngine.ts';
import { MAX_ALERTS_PER_ORGANIZATION } from '../../src/features/alerts/alertLimit.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

// The engine takes every organization's work: a database of the file's own.
const t = useTestApp({}, { ownDatabase: true });
const condition = { count: 'atLeast', threshold: 1, windowSeconds: 60 };

const createAlert = (org: TestOrg, project: string, body: Record<string, unknown> = {}) =>
  org.post(`/api/projects/${project}/alerts`, { name: 'Watch', condition, ...body });

/** `count` alerts written straight into the table (disabled: the engine leaves them alone). */
async function insertAlerts(org: TestOrg, project: string, count: number): Promise<void> {
  await t.services.sql`
    INSERT INTO alerts (organization_id, id, project_id, name, filter, count_mode, threshold, window_seconds, category,
                        renotify_seconds, enabled, state, state_since, window_start, next_due_at, created_at)
    SELECT ${org.id}, 'bulk' || n, ${project}, 'Bulk ' || n, '{}'::jsonb, 'atLeast', 1, 60, 'alerts', NULL, false, 'ok', now(), now(), NULL, now()
    FROM generate_series(1, ${count}) AS n`;
}

describe('alert bounds per organization', () => {
  it('at most 1,000 alerts per organization: the next answers 400 and creates nothing; an import past it too', async () => {
    const org = await t.org();
    const [first, second] = [await org.project(), await org.project('Second')];
    await insertAlerts(org, first, MAX_ALERTS_PER_ORGANIZATION - 1);
    assert.equal((await createAlert(org, second)).status, 201, 'the 1,000th, in another project');
    const refused = await createAlert(org, first);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /at most 1000 alerts/);
    const [row] = await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM alerts WHERE organization_id = ${org.id}`;
    assert.equal(row?.n, MAX_ALERTS_PER_ORGANIZATION);
    // Another organization is not affected.
    const other = await t.org();
    assert.equal((await createAlert(other, await other.project())).status, 201);
  });

  it('a filter search of more than 1,000 characters is refused', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await createAlert(org, project, { filter: { search: 'x'.repeat(1000) } })).status, 201);
    const refused = await createAlert(org, project, { filter: { search: 'x'.repeat(1001) } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /filter\.search must be at most 1000 characters/);
  });
});

describe('a slow organization beside a normal one', () => {
  it("the normal organization's alert fires within 15 s while the slow one's evaluation hangs", async (tc) => {
    const slow = await t.org();
    const slowProject = await slow.project();
    const slowAlert = await createAlert(slow, slowProject);
    assert.equal(slowAlert.status, 201);
    const normal = await t.org();
    const normalProject = await normal.project();
    const alert = await createAlert(normal, normalProject);
    assert.equal(alert.status, 201);

    const engine = new AlertEngine({
      sql: t.services.sql,
      bus: t.services.bus,
      log: t.services.log,
      intervalSeconds: 0.2,
      timeZone: t.services.config.timeZone,
    });
    engine.start();
    tc.after(() => engine.stop());
    // Both organizations looked at once, nothing pending.
    await waitUntil(async () => (await t.services.sql`SELECT 1 FROM alert_schedules WHERE due_at <= now() OR leased_until > now()`).length === 0, {
      timeoutMs: 15_000,
      message: 'a first look',
    });

    // The slow organization's evaluation hangs: its schedule row is held, so its claim waits.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, 30_000).unref();
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.services.sql.begin(async (tx) => {
      await tx`SELECT organization_id FROM alert_schedules WHERE organization_id = ${slow.id} FOR UPDATE`;
      locked();
      await held;
    });
    try {
      await lockTaken;
      assert.equal((await slow.post('/api/events', { project: slowProject, category: 'c', title: 'slow' })).status, 201);
      // The claim has been running half a second: it waits for the row (on a distributed engine
      // the coordinator shows it running and its worker shows it waiting).
      await waitUntil(
        async () =>
          (
            await t.services.sql`
          SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
            AND query LIKE '%UPDATE alert_schedules s SET leased_until%' AND clock_timestamp() - query_start > interval '500 milliseconds'`
          ).length > 0,
        { timeoutMs: 15_000, message: 'the engine to wait on the slow organization' },
      );

      const sent = Date.now();
      assert.equal((await normal.post('/api/events', { project: normalProject, category: 'c', title: 'normal' })).status, 201);
      await waitUntil(async () => (await normal.get(`/api/alerts/${alert.body.id}`)).body.state === 'firing', {
        timeoutMs: 15_000,
        message: 'the normal organization to fire',
      });
      tc.diagnostic(`the normal organization fired ${Date.now() - sent} ms after its event`);
    } finally {
      release();
      await holder;
    }
    // Released, the slow organization is evaluated too.
    await waitUntil(async () => (await slow.get(`/api/alerts/${slowAlert.body.id}`)).body.state === 'firing', {
      timeoutMs: 15_000,
      message: 'the slow organization to fire',
    });
  });
});

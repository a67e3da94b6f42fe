import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Eventlog, EventlogError } from '../../client/src/index.ts';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { useTestApp } from '../helpers.ts';
import { listen } from '../client/support.ts';

const t = useTestApp();
const server = listen(t);

describe('@eventlog/client: alerts', () => {
  it('creates, lists, reads, updates, mutes, pages the history of and deletes an alert', async () => {
    const org = await t.org();
    const project = await org.project();
    const log = new Eventlog({ token: org.key, project, baseUrl: await server.url(), retryDelayMs: 10 });
    const alert = await log.alerts.create({ name: 'Errors', filter: { category: 'errors' }, condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } });
    assert.ok(alert);
    assert.deepEqual(
      (await log.alerts.list()).map((a) => a.id),
      [alert.id],
    );
    assert.equal((await log.alerts.get(alert.id))?.name, 'Errors');
    assert.equal((await log.alerts.update(alert.id, { name: 'Renamed' }))?.name, 'Renamed');
    const until = new Date(Date.now() + 3_600_000);
    assert.equal((await log.alerts.mute(alert.id, until))?.mutedUntil, new Date(Math.round(until.getTime())).toISOString());
    assert.equal((await log.alerts.mute(alert.id, null))?.mutedUntil, null);

    await log.track({ category: 'errors', title: 'boom' });
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    const transitions = [];
    for await (const transition of log.alerts.history(alert.id)) transitions.push(transition);
    assert.deepEqual(
      transitions.map((x) => [x.state, x.count]),
      [['firing', 1]],
    );

    assert.deepEqual(await log.alerts.delete(alert.id), { id: alert.id, deleted: true });
    await assert.rejects(log.alerts.get(alert.id), (error: unknown) => error instanceof EventlogError && error.status === 404);
  });

  it('disabled: alerts calls send nothing', async () => {
    const log = new Eventlog({ project: 'p', disabled: true });
    assert.deepEqual(await log.alerts.list(), []);
    assert.equal(await log.alerts.create({ name: 'n', condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } }), undefined);
  });
});

import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { cleanUp, stopServers } from '../storage/processes.ts';
import { alertEventStates, call, servers, transitions } from './serverSupport.ts';
import { useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

// A restart keeps every alert's state: a firing alert does not fire again after a graceful stop
// or a kill -9 (extensions.md, "Alerts").

const t = useTestApp({}, { ownDatabase: true });
after(cleanUp);
afterEach(stopServers);

describe('alerts: restarts', () => {
  it("a restart (and a kill -9) while firing fires no second time; a dead man's switch fires after its window", async () => {
    let [server] = await servers(t.databaseUrl, 1);
    const org = await t.org();
    const project = String((await call(server!, org, 'POST', '/api/projects', { name: 'P' })).body.id);
    const created = await call(server!, org, 'POST', `/api/projects/${project}/alerts`, {
      name: 'Nightly backup',
      filter: { category: 'backup' },
      condition: { count: 'fewerThan', threshold: 1, windowSeconds: 10 },
    });
    const alertId = String(created.body.id);
    // A negative check: the alert must not fire before a whole window has passed.
    await sleep(3000);
    assert.equal((await call(server!, org, 'GET', `/api/alerts/${alertId}`)).body.state, 'ok', 'not before a whole window');
    await waitUntil(async () => (await call(server!, org, 'GET', `/api/alerts/${alertId}`)).body.state === 'firing', {
      timeoutMs: 25_000,
      message: "the dead man's switch firing",
    });
    assert.ok(Date.now() - Date.parse(created.body.createdAt) >= 10_000);

    assert.deepEqual(await server!.stop('SIGTERM'), { code: 0, signal: null });
    [server] = await servers(t.databaseUrl, 1);
    // Negative checks: the restarted engine runs a while and must not fire the alert again.
    await sleep(2500);
    process.kill(server!.pid, 'SIGKILL');
    await server!.exited;
    [server] = await servers(t.databaseUrl, 1);
    await sleep(2500);
    const alert = (await call(server!, org, 'GET', `/api/alerts/${alertId}`)).body;
    assert.equal(alert.state, 'firing');
    assert.deepEqual(await transitions(t.services.sql, org, alertId), ['firing']);
    assert.deepEqual(await alertEventStates(t.services.sql, org, alertId), ['firing']);

    assert.equal((await call(server!, org, 'POST', '/api/events', { project, category: 'backup', title: 'done' })).status, 201);
    await waitUntil(async () => (await call(server!, org, 'GET', `/api/alerts/${alertId}`)).body.state === 'ok', {
      timeoutMs: 15_000,
      message: 'resolved by the backup event',
    });
    assert.deepEqual(await alertEventStates(t.services.sql, org, alertId), ['firing', 'resolved']);
  });
});

import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { cleanUp, stopServers } from '../storage/processes.ts';
import { alertEventStates, call, servers, transitions } from './serverSupport.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

// The engine as the server runs it: real server processes on one database, evaluating every
// ALERT_EVALUATION_INTERVAL_SECONDS besides the bus's announcements.

const t = useTestApp({}, { ownDatabase: true });
after(cleanUp);
afterEach(stopServers);

describe('alerts: the engine in server processes', () => {
  it('two processes on one database: each transition once, with one event, within 15 s', async () => {
    const [a, b] = await servers(t.databaseUrl, 2);
    const orgs = await Promise.all([1, 2, 3].map(() => t.org()));
    const alerts: Array<{ org: TestOrg; id: string; project: string }> = [];
    for (const org of orgs) {
      const project = String((await call(a!, org, 'POST', '/api/projects', { name: 'P' })).body.id);
      for (let i = 0; i < 4; i++) {
        const reply = await call(i % 2 ? a! : b!, org, 'POST', `/api/projects/${project}/alerts`, {
          name: `A${i}`,
          condition: { count: 'atLeast', threshold: 2, windowSeconds: 10 },
        });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        alerts.push({ org, id: reply.body.id, project });
      }
    }
    const sent = Date.now();
    for (const org of orgs) {
      const project = alerts.find((x) => x.org === org)!.project;
      for (const server of [a!, b!]) assert.equal((await call(server, org, 'POST', '/api/events', { project, category: 'errors', title: 'e' })).status, 201);
    }
    for (const alert of alerts) {
      await waitUntil(async () => (await call(b!, alert.org, 'GET', `/api/alerts/${alert.id}`)).body.state === 'firing', {
        timeoutMs: 15_000,
        message: `alert ${alert.id} firing`,
      });
    }
    assert.ok(Date.now() - sent < 15_000);
    // Both engines keep looking; nothing more may happen while the condition holds.
    // A negative check: there is no event to wait for, only a while in which nothing may change.
    await sleep(2000);
    for (const alert of alerts) {
      assert.deepEqual(await transitions(t.services.sql, alert.org, alert.id), ['firing']);
      assert.deepEqual(await alertEventStates(t.services.sql, alert.org, alert.id), ['firing']);
    }
    // The two events leave the 10 s window; each alert resolves once.
    for (const alert of alerts) {
      await waitUntil(async () => (await call(a!, alert.org, 'GET', `/api/alerts/${alert.id}`)).body.state === 'ok', {
        timeoutMs: 25_000,
        message: `alert ${alert.id} resolved`,
      });
    }
    // A negative check, as above: nothing more after the resolution.
    await sleep(1500);
    for (const alert of alerts) {
      assert.deepEqual(await transitions(t.services.sql, alert.org, alert.id), ['firing', 'ok']);
      assert.deepEqual(await alertEventStates(t.services.sql, alert.org, alert.id), ['firing', 'resolved']);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

describe('alerts: project export and import', () => {
  it('carries alert definitions (not their state) out and back in', async () => {
    const org = await t.org();
    const project = await org.project('Watched');
    const definition = {
      name: 'Payments failing',
      filter: { category: 'payments', tags: { status: 'failed' } },
      condition: { count: 'atLeast', threshold: 10, windowSeconds: 300 },
      category: 'paging',
      renotifySeconds: 3600,
      enabled: false,
    };
    assert.equal((await org.post(`/api/projects/${project}/alerts`, definition)).status, 201);
    const exported = await org.get('/api/export');
    assert.equal(exported.status, 200);
    const document = typeof exported.body === 'string' ? JSON.parse(exported.body) : exported.body;
    assert.deepEqual(document.projects[0].alerts, [definition]);

    const other = await t.org();
    const imported = await other.post('/api/import', document);
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const newProject = imported.body.idMap[project];
    const alerts = (await other.get(`/api/projects/${newProject}/alerts`)).body;
    assert.equal(alerts.length, 1);
    const { id, projectId, mutedUntil, state, stateSince, count, createdAt, critical, ...rest } = alerts[0];
    assert.deepEqual(rest, definition);
    assert.equal(critical, false, 'not critical unless the document says so');
    assert.deepEqual([projectId, mutedUntil, state, count], [newProject, null, 'ok', null]);
    assert.ok(typeof id === 'string' && stateSince === createdAt);
  });

  it('refuses a bad alert definition with the row it is in, importing nothing', async () => {
    const org = await t.org();
    const bad = { projects: [{ name: 'P', alerts: [{ name: 'ok', condition: { count: 'atLeast', threshold: 0, windowSeconds: 60 } }] }] };
    const reply = await org.post('/api/import', bad);
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /alerts/);
    const blank = await org.post('/api/import', {
      projects: [{ name: 'P', alerts: [{ name: ' ', condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } }] }],
    });
    assert.equal(blank.status, 400);
    assert.match(blank.body.error, /alerts\[0\]/);
    assert.deepEqual((await org.get('/api/projects')).body, []);
  });
});

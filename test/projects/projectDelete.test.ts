import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { PROJECT_DELETED } from '../../src/db/announcements.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

/** Rows of every table that holds a project's data, for one project. */
async function rowsOf(org: TestOrg, project: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['events', 'categories', 'event_daily_counts', 'insights', 'incoming_hooks', 'destinations', 'projects']) {
    const column = table === 'projects' ? 'id' : 'project_id';
    const [row] = await t.services.sql.unsafe(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1 AND ${column} = $2`, [org.id, project]);
    counts[table] = (row as unknown as { n: number }).n;
  }
  return counts;
}

async function filledProject(org: TestOrg, name = 'Doomed'): Promise<{ project: string; hookPath: string }> {
  const project = await org.project(name);
  for (let i = 0; i < 5; i++) {
    assert.equal((await org.post('/api/events', { project, category: 'c', title: `e${i}`, notify: i === 0 })).status, 201);
  }
  assert.equal((await org.post('/api/insight', { project, title: 'Users', value: 3 })).status, 200);
  const hook = await org.post(`/api/projects/${project}/hooks`, { name: 'hook', category: 'inbox' });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const destination = await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/hook', format: 'json' });
  assert.ok(destination.status < 300, JSON.stringify(destination.body));
  return { project, hookPath: new URL(hook.body.url).pathname };
}

describe('POST /api/projects/:projectId/delete', () => {
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('deletes the project and everything in it, answering {id, deleted: true}', async () => {
    const org = await t.org();
    const { project, hookPath } = await filledProject(org);
    const kept = await filledProject(org, 'Kept');
    const before = await rowsOf(org, project);
    assert.ok(before.events === 5 && before.insights === 1 && before.incoming_hooks === 1);

    const reply = await org.post(`/api/projects/${project}/delete`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { id: project, deleted: true });

    // A small project is purged before the reply.
    assert.deepEqual(Object.values(await rowsOf(org, project)), [0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(
      (await org.get('/api/projects')).body.map((p: { id: string }) => p.id),
      [kept.project],
    );
    assert.equal((await rowsOf(org, kept.project)).events, 5, 'other projects keep their rows');

    for (const url of [
      `/api/events?project=${project}`,
      `/api/insights?project=${project}`,
      `/api/charts?project=${project}`,
      `/api/categories?project=${project}`,
      `/api/projects/${project}/hooks`,
      `/api/projects/${project}/destinations`,
    ]) {
      assert.equal((await org.get(url)).status, 404, url);
    }
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 'late' })).status, 404);
    assert.equal((await org.post('/api/insight', { project, title: 'x', value: 1 })).status, 404);
    const hook = await t.request({ method: 'POST', url: hookPath, payload: 'hello' });
    assert.equal(hook.status, 404);
    assert.equal((await org.post(`/api/projects/${project}/delete`)).status, 404, 'a second delete finds nothing');
    const exported = await org.get('/api/export');
    assert.equal(JSON.stringify(exported.body).includes(project), false);
  });

  it('hides the project at once, even while its rows are still being purged', async () => {
    const org = await t.org();
    const project = await org.project();
    const event = await org.post('/api/events', { project, category: 'c', title: 'x' });
    // Marked deleted, not yet purged: the state a slow purge (or a crash) leaves.
    await t.services.sql`UPDATE projects SET deleted_at = now() WHERE organization_id = ${org.id} AND id = ${project}`;
    assert.equal((await org.get(`/api/events?project=${project}`)).status, 404);
    assert.equal((await org.post(`/api/events/${event.body.id}/favorite`)).status, 404);
    assert.equal((await org.post(`/api/events/${event.body.id}/delete`)).status, 404);
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 'late' })).status, 404);
    assert.equal((await org.get('/api/projects')).body.length, 0);
    // The sweep finishes what was started.
    await t.services.purger.sweep();
    assert.equal((await rowsOf(org, project)).events, 0);
    assert.equal((await rowsOf(org, project)).projects, 0);
  });

  it('purges a large project in batches', async () => {
    const org = await t.org();
    const project = await org.project();
    await t.services.sql`
      INSERT INTO events (organization_id, id, project_id, category, title)
      SELECT ${org.id}, g, ${project}, 'bulk', 'row ' || g FROM generate_series(1, 2500) g`;
    const reply = await org.post(`/api/projects/${project}/delete`);
    assert.equal(reply.status, 200);
    await t.services.purger.purge(org.id, project);
    assert.equal((await rowsOf(org, project)).events, 0);
  });

  it('answers an event written while the project is purged with 404, never 500', async () => {
    const org = await t.org();
    const project = await org.project();
    const writes = Array.from({ length: 30 }, (_, i) => org.post('/api/events', { project, category: 'c', title: `race ${i}` }));
    const deleted = org.post(`/api/projects/${project}/delete`);
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    assert.equal((await deleted).status, 200);
    assert.ok(
      statuses.every((s) => s === 201 || s === 404),
      statuses.join(','),
    );
    await t.services.purger.purge(org.id, project);
    assert.equal((await rowsOf(org, project)).events, 0);
  });

  it('announces the delete and ends live feeds of the project', async () => {
    const org = await t.org();
    const project = await org.project();
    const address = t.app.server.address() as AddressInfo;
    const abort = new AbortController();
    const response = await fetch(`http://127.0.0.1:${address.port}/api/live?project=${project}`, {
      headers: { authorization: `Bearer ${org.key}` },
      signal: abort.signal,
    });
    assert.equal(response.status, 200);
    const announced = new Promise((resolve) => {
      const stop = t.services.bus.subscribe((a) => {
        if (a.type === PROJECT_DELETED && a.projectId === project) {
          stop();
          resolve(a);
        }
      });
    });
    const ended = (async () => {
      const reader = response.body!.getReader();
      for (;;) if ((await reader.read()).done) return true;
    })();
    assert.equal((await org.post(`/api/projects/${project}/delete`)).status, 200);
    await announced;
    const timeout = new Promise((resolve) => setTimeout(() => resolve(false), 5000));
    assert.equal(await Promise.race([ended, timeout]), true, 'the live stream ended');
    abort.abort();
  });

  it("answers 404 for another organization's project and leaves it alone; 401 without a key", async () => {
    const [mine, theirs] = [await t.org(), await t.org()];
    const project = await theirs.project();
    assert.equal((await mine.post(`/api/projects/${project}/delete`)).status, 404);
    assert.equal((await mine.post('/api/projects/nosuchproject/delete')).status, 404);
    assert.equal((await t.request({ method: 'POST', url: `/api/projects/${project}/delete` })).status, 401);
    assert.equal((await theirs.get('/api/projects')).body.length, 1);
  });
});

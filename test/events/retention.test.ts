import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetentionPruner } from '../../src/features/events/retentionPruner.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

const patch = (org: TestOrg, project: string, body: unknown) =>
  t.request({ method: 'PATCH', url: `/api/projects/${project}`, body, headers: { authorization: `Bearer ${org.key}` } });

const pruner = () => new RetentionPruner(t.services.sql, { intervalSeconds: 1, timeZone: t.services.config.timeZone, log: t.services.log });

describe('PATCH /api/projects/:projectId', () => {
  it('renames and sets retention; GET /api/projects shows both; null keeps forever', async () => {
    const org = await t.org();
    const project = await org.project('Old');
    const listed = await org.get('/api/projects');
    assert.equal(listed.body[0].retentionDays, null);
    let reply = await patch(org, project, { name: '  New name ' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.name, 'New name');
    assert.equal(reply.body.retentionDays, null);
    reply = await patch(org, project, { retentionDays: 30 });
    assert.deepEqual([reply.body.name, reply.body.retentionDays], ['New name', 30]);
    assert.equal((await org.get('/api/projects')).body[0].retentionDays, 30);
    reply = await patch(org, project, { retentionDays: null });
    assert.equal(reply.body.retentionDays, null);
    assert.equal((await patch(org, project, {})).status, 200);
  });

  it("refuses bad values with 400 and others' projects with 404, changing nothing", async () => {
    const org = await t.org();
    const project = await org.project('Keep');
    for (const body of [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 5 },
      { retentionDays: 0 },
      { retentionDays: 36501 },
      { retentionDays: 1.5 },
      { retentionDays: '7' },
    ]) {
      const reply = await patch(org, project, body);
      assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
    }
    assert.equal((await patch(org, project, { retentionDays: 36500 })).status, 200);
    assert.equal((await patch(org, project, { retentionDays: 1 })).status, 200);
    const [listed] = (await org.get('/api/projects')).body;
    assert.deepEqual([listed.name, listed.retentionDays], ['Keep', 1]);
    const other = await t.org();
    assert.equal((await patch(other, project, { name: 'stolen' })).status, 404);
    assert.equal((await patch(org, 'nosuchproject', { name: 'x' })).status, 404);
  });
});

describe('retention', () => {
  it('prunes expired events from the feed, search, charts, categories, users and export; keeps the rest', async () => {
    const org = await t.org();
    const project = await org.project();
    const keep = await org.post('/api/events', { project, category: 'c', title: 'fresh needle', user_id: 'u', created_at: now() - 2 * DAY });
    for (let i = 0; i < 3; i++) {
      const old = await org.post('/api/events', { project, category: 'c', title: 'old needle', user_id: 'u', created_at: now() - 10 * DAY - i });
      assert.equal(old.status, 201, 'an event already older than the retention is accepted');
    }
    await org.post('/api/events', { project, category: 'gone', title: 'old', created_at: now() - 20 * DAY });
    assert.equal((await patch(org, project, { retentionDays: 7 })).status, 200);
    assert.ok((await pruner().runOnce()) >= 4);

    const feed = await org.get(`/api/events?project=${project}`);
    assert.deepEqual(
      feed.body.events.map((e: { id: number }) => e.id),
      [keep.body.id],
    );
    const search = await org.get(`/api/events?project=${project}&search=needle`);
    assert.equal(search.body.events.length, 1);
    const categories = await org.get(`/api/categories?project=${project}`);
    assert.deepEqual(categories.body, [
      { name: 'c', count: 1 },
      { name: 'gone', count: 0 },
    ]);
    const charts = await org.get(`/api/charts?project=${project}&days=30`);
    assert.equal(JSON.stringify(charts.body).includes('"count":3'), false);
    const user = await org.get(`/api/users/u?project=${project}`);
    assert.equal(user.body.eventCount, 1);
    assert.equal(user.body.firstSeen, user.body.lastSeen);
    const exported = await org.get('/api/export');
    const events = JSON.stringify(exported.body);
    assert.equal(events.includes('old needle'), false);
    assert.equal(events.includes('fresh needle'), true);
  });

  it('prunes in batches, with several pruners at once, exactly once', async () => {
    const org = await t.org();
    const project = await org.project();
    const created = now() - 5 * DAY;
    const bodies = Array.from({ length: 2500 }, (_, i) => ({ project, category: 'c', title: `e${i}`, user_id: `u${i % 5}`, created_at: created }));
    for (let i = 0; i < bodies.length; i += 500) {
      await Promise.all(bodies.slice(i, i + 500).map(async (body) => assert.equal((await org.post('/api/events', body)).status, 201)));
    }
    await org.post('/api/events', { project, category: 'c', title: 'new', user_id: 'u0' });
    await patch(org, project, { retentionDays: 2 });
    await Promise.all([pruner().runOnce(), pruner().runOnce(), pruner().runOnce()]);
    const feed = await org.get(`/api/events?project=${project}`);
    assert.deepEqual(
      feed.body.events.map((e: { title: string }) => e.title),
      ['new'],
    );
    const users = (await org.get(`/api/users?project=${project}&limit=100`)).body.users;
    assert.equal(users.length, 5, 'users stay after their events are pruned');
    for (const u of users) assert.equal(u.eventCount, u.userId === 'u0' ? 1 : 0);
    const categories = await org.get(`/api/categories?project=${project}`);
    assert.deepEqual(categories.body, [{ name: 'c', count: 1 }]);
  });

  it('leaves projects without retention alone', async () => {
    const org = await t.org();
    const project = await org.project();
    await org.post('/api/events', { project, category: 'c', title: 'ancient', created_at: now() - 3650 * DAY });
    await pruner().runOnce();
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events.length, 1);
  });
});

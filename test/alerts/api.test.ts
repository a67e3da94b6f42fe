import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

const condition = { count: 'atLeast', threshold: 10, windowSeconds: 300 };

function patch(org: TestOrg, url: string, body: unknown) {
  return t.request({ method: 'PATCH', url, body, headers: { authorization: `Bearer ${org.key}` } });
}

async function alertOf(org: TestOrg, project: string, body: Record<string, unknown> = {}) {
  const reply = await org.post(`/api/projects/${project}/alerts`, { name: 'Errors', condition, ...body });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body;
}

describe('alerts: the routes of extensions.md "Alerts"', () => {
  it('creates an alert with its defaults and answers the alert object', async () => {
    const org = await t.org();
    const project = await org.project();
    const alert = await alertOf(org, project, { name: '  Errors  ' });
    assert.equal(typeof alert.id, 'string');
    assert.deepEqual(Object.keys(alert).sort(), [
      'category',
      'condition',
      'count',
      'createdAt',
      'critical',
      'enabled',
      'filter',
      'id',
      'mutedUntil',
      'name',
      'projectId',
      'renotifySeconds',
      'state',
      'stateSince',
    ]);
    assert.equal(alert.name, 'Errors');
    assert.deepEqual(alert.filter, {});
    assert.deepEqual(alert.condition, condition);
    assert.equal(alert.category, 'alerts');
    assert.equal(alert.renotifySeconds, null);
    assert.equal(alert.enabled, true);
    assert.equal(alert.critical, false);
    assert.equal(alert.mutedUntil, null);
    assert.equal(alert.state, 'ok');
    assert.equal(alert.count, null);
    assert.equal(alert.projectId, project);
    assert.equal(alert.stateSince, alert.createdAt);
    assert.ok(!Number.isNaN(Date.parse(alert.createdAt)));
  });

  it("lists a project's alerts oldest first, gets, patches, mutes and deletes one", async () => {
    const org = await t.org();
    const project = await org.project();
    const first = await alertOf(org, project, { name: 'First' });
    const second = await alertOf(org, project, {
      name: 'Second',
      filter: { category: 'errors', tags: { plan: 'pro', code: 500 }, user_id: 'u1', search: 'timeout' },
      category: 'paging',
      renotifySeconds: 600,
      enabled: false,
    });
    const list = await org.get(`/api/projects/${project}/alerts`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((a: { id: string }) => a.id),
      [first.id, second.id],
    );
    assert.deepEqual(list.body[1].filter, { category: 'errors', tags: { plan: 'pro', code: 500 }, user_id: 'u1', search: 'timeout' });

    assert.deepEqual((await org.get(`/api/alerts/${second.id}`)).body, list.body[1]);

    const changed = await patch(org, `/api/alerts/${first.id}`, {
      name: 'Renamed',
      condition: { count: 'fewerThan', threshold: 1, windowSeconds: 90_000 },
      renotifySeconds: 60,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.name, 'Renamed');
    assert.deepEqual(changed.body.condition, { count: 'fewerThan', threshold: 1, windowSeconds: 90_000 });
    assert.equal(changed.body.renotifySeconds, 60);
    assert.equal(changed.body.category, 'alerts', 'fields not given are kept');
    assert.equal(changed.body.critical, false);
    const critical = await patch(org, `/api/alerts/${first.id}`, { critical: true });
    assert.equal(critical.body.critical, true);
    assert.equal((await org.get(`/api/alerts/${first.id}`)).body.critical, true);
    assert.equal((await patch(org, `/api/alerts/${first.id}`, { critical: 'yes' })).status, 400);

    const until = Math.floor(Date.now() / 1000) + 3600;
    const muted = await org.post(`/api/alerts/${first.id}/mute`, { until });
    assert.equal(muted.status, 200);
    assert.equal(muted.body.mutedUntil, new Date(until * 1000).toISOString());
    const unmuted = await org.post(`/api/alerts/${first.id}/mute`, { until: null });
    assert.equal(unmuted.body.mutedUntil, null);

    const deleted = await org.post(`/api/alerts/${first.id}/delete`);
    assert.deepEqual([deleted.status, deleted.body], [200, { id: first.id, deleted: true }]);
    assert.equal((await org.get(`/api/alerts/${first.id}`)).status, 404);
    assert.equal((await org.post(`/api/alerts/${first.id}/delete`)).status, 404);
    assert.deepEqual(
      (await org.get(`/api/projects/${project}/alerts`)).body.map((a: { id: string }) => a.id),
      [second.id],
    );
  });

  it('answers 400 for every bad field, and changes nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const bad: Array<Record<string, unknown>> = [
      { condition },
      { name: '', condition },
      { name: '   ', condition },
      { name: 'x'.repeat(101), condition },
      { name: 7, condition },
      { name: 'n' },
      { name: 'n', condition: { ...condition, count: 'atMost' } },
      { name: 'n', condition: { ...condition, threshold: 0 } },
      { name: 'n', condition: { ...condition, threshold: 1_000_001 } },
      { name: 'n', condition: { ...condition, threshold: 1.5 } },
      { name: 'n', condition: { ...condition, threshold: '10' } },
      { name: 'n', condition: { ...condition, windowSeconds: 9 } },
      { name: 'n', condition: { ...condition, windowSeconds: 31_536_001 } },
      { name: 'n', condition: { count: 'atLeast', threshold: 1 } },
      { name: 'n', condition, category: 'c'.repeat(101) },
      { name: 'n', condition, category: '' },
      { name: 'n', condition, renotifySeconds: 59 },
      { name: 'n', condition, renotifySeconds: 604_801 },
      { name: 'n', condition, renotifySeconds: 61.5 },
      { name: 'n', condition, enabled: 'yes' },
      { name: 'n', condition, filter: 'errors' },
      { name: 'n', condition, filter: { colour: 'red' } },
      { name: 'n', condition, filter: { category: '' } },
      { name: 'n', condition, filter: { tags: { '': 'x' } } },
      { name: 'n', condition, filter: { tags: { a: { b: 1 } } } },
      { name: 'n', condition, filter: { user_id: '' } },
      { name: 'n', condition, filter: { search: '' } },
      { name: 'n', condition, extra: 1 },
    ];
    for (const body of bad) {
      const reply = await org.post(`/api/projects/${project}/alerts`, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(typeof reply.body.error, 'string');
    }
    assert.deepEqual((await org.get(`/api/projects/${project}/alerts`)).body, []);

    const alert = await alertOf(org, project);
    for (const body of [
      { name: '' },
      { condition: { ...condition, threshold: 0 } },
      { renotifySeconds: 10 },
      { enabled: null },
      { filter: { x: 1 } },
      { projectId: project },
    ]) {
      assert.equal((await patch(org, `/api/alerts/${alert.id}`, body)).status, 400, JSON.stringify(body));
    }
    for (const body of [{}, { until: 'soon' }, { until: -1 }, { until: 1e15 }]) {
      assert.equal((await org.post(`/api/alerts/${alert.id}/mute`, body)).status, 400, JSON.stringify(body));
    }
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'cursor=abc']) {
      assert.equal((await org.get(`/api/alerts/${alert.id}/history?${query}`)).status, 400, query);
    }
    assert.deepEqual((await org.get(`/api/alerts/${alert.id}`)).body, alert, 'nothing changed');
  });

  it("answers 404 for an unknown project or alert and for another organization's", async () => {
    const org = await t.org();
    const other = await t.org();
    const project = await org.project();
    const alert = await alertOf(org, project);
    for (const who of [org, other]) {
      const id = who === org ? 'nosuchalert1' : alert.id;
      assert.equal((await who.get(`/api/alerts/${id}`)).status, 404);
      assert.equal((await patch(who, `/api/alerts/${id}`, { name: 'x' })).status, 404);
      assert.equal((await who.post(`/api/alerts/${id}/mute`, { until: null })).status, 404);
      assert.equal((await who.get(`/api/alerts/${id}/history`)).status, 404);
      assert.equal((await who.post(`/api/alerts/${id}/delete`)).status, 404);
    }
    assert.equal((await other.post(`/api/projects/${project}/alerts`, { name: 'n', condition })).status, 404);
    assert.equal((await other.get(`/api/projects/${project}/alerts`)).status, 404);
    assert.equal((await org.post('/api/projects/nosuchprojec/alerts', { name: 'n', condition })).status, 404);
    assert.equal((await org.get('/api/projects/nosuchprojec/alerts')).status, 404);
    assert.equal((await org.get(`/api/alerts/${alert.id}`)).body.name, 'Errors', 'untouched by the other organization');
  });

  it("deletes a project's alerts with the project", async () => {
    const org = await t.org();
    const project = await org.project();
    const alert = await alertOf(org, project);
    assert.equal((await org.post(`/api/projects/${project}/delete`)).status, 200);
    assert.equal((await org.get(`/api/alerts/${alert.id}`)).status, 404);
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM alerts WHERE organization_id = ${org.id}`;
    assert.equal(row!.n, 0);
  });

  it('previews how many events a filter matches now', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const category of ['errors', 'errors', 'signups']) await org.post('/api/events', { project, category, title: 't' });
    const all = await org.post(`/api/projects/${project}/alerts/preview`, { windowSeconds: 300 });
    assert.deepEqual([all.status, all.body], [200, { count: 3 }]);
    const errors = await org.post(`/api/projects/${project}/alerts/preview`, { windowSeconds: 300, filter: { category: 'errors' } });
    assert.deepEqual(errors.body, { count: 2 });
  });
});

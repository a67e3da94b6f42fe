import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

async function dayAgo(daysAgo: number): Promise<{ day: string; seconds: number }> {
  const [row] = await t.services.sql<{ day: string; seconds: number }[]>`
    SELECT (current_date - ${daysAgo}::int)::text AS day,
           extract(epoch FROM ((current_date - ${daysAgo}::int) + time '12:00')::timestamptz)::float8 AS seconds`;
  return row!;
}

describe('GET /api/projects/activity', () => {
  it('gives each project its events today and over 7 days, a zero-filled series and its last event time', async () => {
    const org = await t.org();
    const busy = await org.project('busy');
    const quiet = await org.project('quiet');
    const gone = await org.project('gone');
    const send = async (project: string, daysAgo: number, n: number) => {
      const { seconds } = await dayAgo(daysAgo);
      for (let i = 0; i < n; i++) {
        const reply = await org.post('/api/events', { project, category: i % 2 ? 'a' : 'b', title: 't', created_at: seconds - 60 + i });
        assert.equal(reply.status, 201);
      }
    };
    await send(busy, 0, 3);
    await send(busy, 2, 2);
    await send(busy, 6, 1);
    await send(busy, 7, 5); // 8 days ago counts from today: outside the week
    await send(gone, 0, 1);
    assert.equal((await org.post(`/api/projects/${gone}/delete`)).status, 200);

    const reply = await org.get('/api/projects/activity');
    assert.equal(reply.status, 200);
    const days = await Promise.all([6, 5, 4, 3, 2, 1, 0].map(async (n) => (await dayAgo(n)).day));
    const byId = new Map(reply.body.map((p: { projectId: string }) => [p.projectId, p]));
    assert.deepEqual([...byId.keys()].sort(), [busy, quiet].sort());
    const { seconds: todayNoon } = await dayAgo(0);
    assert.deepEqual(byId.get(busy), {
      projectId: busy,
      eventsToday: 3,
      eventsThisWeek: 6,
      series: days.map((day, i) => ({ day, count: [1, 0, 0, 0, 2, 0, 3][i] })),
      lastEventAt: new Date((todayNoon - 60 + 2) * 1000).toISOString(),
      firingAlerts: [],
    });
    assert.deepEqual(byId.get(quiet), {
      projectId: quiet,
      eventsToday: 0,
      eventsThisWeek: 0,
      series: days.map((day) => ({ day, count: 0 })),
      lastEventAt: null,
      firingAlerts: [],
    });

    const other = await t.org();
    assert.deepEqual((await other.get('/api/projects/activity')).body, []);
    assert.equal((await t.request({ method: 'GET', url: '/api/projects/activity' })).status, 401);
  });

  it('names the firing alerts of each project, until they resolve', async () => {
    const org = await t.org();
    const watched = await org.project('watched');
    const calm = await org.project('calm');
    const create = async (name: string, threshold: number) =>
      (
        await org.post(`/api/projects/${watched}/alerts`, {
          name,
          filter: { category: 'errors' },
          condition: { count: 'atLeast', threshold, windowSeconds: 60 },
        })
      ).body.id as string;
    const firing = await create('Errors', 1);
    await create('Many errors', 100);
    assert.equal((await org.post('/api/events', { project: watched, category: 'errors', title: 'boom' })).status, 201);
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    const byId = new Map((await org.get('/api/projects/activity')).body.map((p: { projectId: string }) => [p.projectId, p]));
    assert.deepEqual((byId.get(watched) as { firingAlerts: unknown }).firingAlerts, [{ id: firing, name: 'Errors' }]);
    assert.deepEqual((byId.get(calm) as { firingAlerts: unknown }).firingAlerts, []);
    const disabled = await t.request({
      method: 'PATCH',
      url: `/api/alerts/${firing}`,
      body: { enabled: false },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    const after = new Map((await org.get('/api/projects/activity')).body.map((p: { projectId: string }) => [p.projectId, p]));
    assert.deepEqual((after.get(watched) as { firingAlerts: unknown }).firingAlerts, [], 'a disabled alert is not shown as firing');
  });

  it('leaves out a firing alert while it is muted, as the firing banner does', async () => {
    const org = await t.org();
    const project = await org.project('watched');
    const create = async (name: string, category: string) =>
      (await org.post(`/api/projects/${project}/alerts`, { name, filter: { category }, condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } })).body
        .id as string;
    const loud = await create('Errors', 'errors');
    const noisy = await create('Crawlers', 'crawlers');
    for (const category of ['errors', 'crawlers']) assert.equal((await org.post('/api/events', { project, category, title: 'boom' })).status, 201);
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    const firingOf = async () =>
      ((await org.get('/api/projects/activity')).body as Array<{ projectId: string; firingAlerts: Array<{ id: string }> }>)
        .find((p) => p.projectId === project)!
        .firingAlerts.map((a) => a.id);
    assert.deepEqual((await firingOf()).sort(), [loud, noisy].sort());

    const mute = (id: string, until: number | null) => org.post(`/api/alerts/${id}/mute`, { until });
    assert.equal((await mute(noisy, Math.floor(Date.now() / 1000) + 3600)).status, 200);
    assert.equal((await org.get(`/api/alerts/${noisy}`)).body.state, 'firing', 'a muted alert still fires');
    assert.deepEqual(await firingOf(), [loud], 'a muted alert is not listed as firing');
    assert.equal((await mute(loud, Math.floor(Date.now() / 1000) + 60)).status, 200);
    assert.deepEqual(await firingOf(), [], 'every firing alert muted: none listed');

    assert.equal((await mute(noisy, null)).status, 200);
    assert.deepEqual(await firingOf(), [noisy], 'unmuted, it is listed again');
    assert.equal((await mute(loud, Math.floor(Date.now() / 1000) - 60)).status, 200);
    assert.deepEqual((await firingOf()).sort(), [loud, noisy].sort(), 'a mute that has ended hides nothing');
  });
});

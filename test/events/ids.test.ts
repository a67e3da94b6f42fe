import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IngestBatcher } from '../../src/features/events/ingestBatcher.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { ID_WARNING_THRESHOLD, MAX_ID } from '../../src/lib/idSpace.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

/** Puts the organization's counter of a kind where a test wants it, as years of use would. */
async function setCounter(org: TestOrg, kind: 'event' | 'insight', lastId: number): Promise<void> {
  await t.services.sql`
    INSERT INTO id_counters (organization_id, kind, last_id) VALUES (${org.id}, ${kind}, ${lastId})
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = excluded.last_id`;
}

const event = (project: string, title = 'Hello') => ({ project, category: 'ids', title });

async function feedIds(org: TestOrg, project: string): Promise<number[]> {
  const reply = await org.get(`/api/events?project=${project}&limit=100`);
  assert.equal(reply.status, 200);
  return (reply.body.events as Array<{ id: number }>).map((e) => e.id);
}

describe('ids per organization (extensions.md, "Ids")', () => {
  it('starts every organization at 1 and counts up with creation order', async () => {
    const a = await t.org();
    const b = await t.org();
    const projectA = await a.project();
    const projectB = await b.project();
    const first = await a.post('/api/events', event(projectA));
    const other = await b.post('/api/events', event(projectB));
    const second = await a.post('/api/events', event(projectA));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.id, 1);
    assert.equal(other.body.id, 1);
    assert.equal(second.body.id, 2);
  });

  it('keeps ids increasing in creation order under concurrency, without duplicates', async () => {
    const org = await t.org();
    const project = await org.project();
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => org.post('/api/events', event(project, `e${i}`))));
    const ids = replies.map((r) => r.body.id as number).sort((x, y) => x - y);
    assert.deepEqual(
      ids,
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
  });

  it('gives two organizations the same event id, each resolving only in its own organization', async () => {
    const a = await t.org();
    const b = await t.org();
    const projectA = await a.project();
    const projectB = await b.project();
    assert.equal((await a.post('/api/events', event(projectA))).body.id, 1);
    assert.equal((await b.post('/api/events', event(projectB))).body.id, 1);
    const favorited = await a.post('/api/events/1/favorite');
    assert.equal(favorited.status, 200);
    assert.equal(favorited.body.favorited, true);
    const [inB] = (await b.get(`/api/events?project=${projectB}`)).body.events;
    assert.equal(inB.favorited, false, "a's favorite must not touch b's event 1");
    assert.equal((await b.post('/api/events/1/delete')).status, 200);
    assert.deepEqual(await feedIds(a, projectA), [1], "b's delete must not touch a's event 1");
  });

  it('answers 507 once an organization has used every event id, writes nothing, and others carry on', async () => {
    const full = await t.org();
    const other = await t.org();
    const project = await full.project();
    const otherProject = await other.project();
    await setCounter(full, 'event', MAX_ID - 1);

    const last = await full.post('/api/events', event(project, 'the last one'));
    assert.equal(last.status, 201, JSON.stringify(last.body));
    assert.equal(last.body.id, MAX_ID);
    const refused = await full.post('/api/events', event(project, 'one too many'));
    assert.equal(refused.status, 507);
    assert.equal(typeof refused.body.error, 'string');
    assert.deepEqual(await feedIds(full, project), [MAX_ID]);

    const imported = await full.post('/api/import', {
      projects: [{ name: 'restored', events: [{ category: 'c', title: 'old', created_at: 1_700_000_000 }] }],
    });
    assert.equal(imported.status, 507);
    const projects = (await full.get('/api/projects')).body as Array<{ name: string }>;
    assert.deepEqual(
      projects.map((p) => p.name),
      ['Test project'],
      'the import wrote nothing',
    );

    const categories = (await full.get(`/api/categories?project=${project}`)).body as Array<{ name: string; count: number }>;
    assert.deepEqual(categories, [{ name: 'ids', count: 1 }]);

    const fine = await other.post('/api/events', event(otherProject));
    assert.equal(fine.status, 201);
    assert.equal(fine.body.id, 1);
  });

  it('gives an import consecutive ids after the last, project by project in file order, and carries on after them', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/events', event(project))).body.id, 1);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ category: 'c', title: `old ${i}`, created_at: 1_700_000_000 + i }));
    const imported = await org.post('/api/import', {
      projects: [
        { name: 'big', events: rows(1500) },
        { name: 'bigger', events: rows(1200) },
        { name: 'small', events: rows(3) },
      ],
    });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const ids = async (name: string) => {
      const found: number[] = [];
      let before = '';
      for (;;) {
        const page = await org.get(`/api/events?project=${imported.body.idMap[name] as string}&limit=100${before}`);
        found.push(...(page.body.events as Array<{ id: number }>).map((e) => e.id));
        if (!page.body.nextCursor) return found.sort((x, y) => x - y);
        before = `&cursor=${page.body.nextCursor as string}`;
      }
    };
    assert.deepEqual(
      await ids('0'),
      Array.from({ length: 1500 }, (_, i) => i + 2),
    );
    assert.deepEqual(
      await ids('1'),
      Array.from({ length: 1200 }, (_, i) => i + 1502),
    );
    assert.deepEqual(await ids('2'), [2702, 2703, 2704]);
    assert.equal((await org.post('/api/events', event(project))).body.id, 2705);
  });

  it('answers 507 from every other source of new ids too: a hook, LogSnag ingestion, an increment', async () => {
    const org = await t.org();
    const project = await org.project();
    const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'hook', category: 'inbox' })).body as { url: string };
    await setCounter(org, 'event', MAX_ID);
    await setCounter(org, 'insight', MAX_ID);
    const bearer = { authorization: `Bearer ${org.key}` };

    const hooked = await t.request({ method: 'POST', url: new URL(hook.url).pathname, payload: 'a hooked event', headers: { 'content-type': 'text/plain' } });
    assert.equal(hooked.status, 507, JSON.stringify(hooked.body));
    assert.equal(typeof hooked.body.error, 'string');
    const logged = await t.request({ method: 'POST', url: '/v1/log', body: { project, channel: 'c', event: 'e' }, headers: bearer });
    assert.equal(logged.status, 507, JSON.stringify(logged.body));
    assert.equal(typeof logged.body.error, 'string');
    const incremented = await t.request({ method: 'PATCH', url: '/api/insight', body: { project, title: 'new', value: { $inc: 1 } }, headers: bearer });
    assert.equal(incremented.status, 507, JSON.stringify(incremented.body));
    assert.equal(typeof incremented.body.error, 'string');

    assert.deepEqual(await feedIds(org, project), [], 'no event was written');
    assert.deepEqual((await org.get(`/api/insights?project=${project}`)).body, [], 'no insight was written');
  });

  it('refuses exactly the events that do not fit when many arrive together near the end', async () => {
    const org = await t.org();
    const project = await org.project();
    await setCounter(org, 'event', MAX_ID - 3);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => org.post('/api/events', event(project, `e${i}`))));
    const statuses = replies.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 201, 201, 507, 507, 507, 507, 507, 507, 507]);
    assert.deepEqual((await feedIds(org, project)).sort(), [MAX_ID - 2, MAX_ID - 1, MAX_ID].sort());
  });

  it('answers 507 for a new insight once insight ids are used up, while updates go on', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/insight', { project, title: 'kept', value: 1 })).status, 200);
    await setCounter(org, 'insight', MAX_ID);
    const refused = await org.post('/api/insight', { project, title: 'new', value: 1 });
    assert.equal(refused.status, 507);
    const updated = await org.post('/api/insight', { project, title: 'kept', value: 2 });
    assert.equal(updated.status, 200);
    const insights = (await org.get(`/api/insights?project=${project}`)).body as Array<{ title: string; value: string }>;
    assert.deepEqual(
      insights.map((i) => [i.title, i.value]),
      [['kept', '2']],
    );
  });

  it('spends no id on an insight update: 1,000 updates, then the next insight is one higher', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/insight', { project, title: 'cron', value: 0 })).status, 200);
    for (let round = 0; round < 10; round++) {
      const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => org.post('/api/insight', { project, title: 'cron', value: round * 100 + i })));
      assert.ok(replies.every((r) => r.status === 200));
    }
    assert.equal((await org.post('/api/insight', { project, title: 'next', value: 1 })).status, 200);
    const insights = (await org.get(`/api/insights?project=${project}`)).body as Array<{ id: number; title: string }>;
    const ids = Object.fromEntries(insights.map((i) => [i.title, i.id]));
    assert.equal(ids.cron, 1);
    assert.equal(ids.next, 2);
  });

  it('warns once when an organization passes 90% of its event ids', async () => {
    const org = await t.org();
    const project = await org.project();
    await setCounter(org, 'event', ID_WARNING_THRESHOLD - 2);
    const warnings: Array<[string, string]> = [];
    const batcher = new IngestBatcher(t.services.sql, {
      timeZone: t.services.config.timeZone,
      warn: (message, organizationId) => warnings.push([message, organizationId]),
    });
    const draft = { ...validateEventInput(event(project)), organizationId: org.id };
    for (let i = 0; i < 4; i++) await batcher.insert(draft);
    await batcher.drain();
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]![1], org.id);
    assert.match(warnings[0]![0], /90%/);
  });
});

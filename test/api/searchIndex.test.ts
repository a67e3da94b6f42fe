import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SearchIndexer } from '../../src/features/events/searchIndexer.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

// Search entries are written after commit by the indexer (migrations/090_search_table.sql);
// search must find the same events before, during and after it runs.
const t = useTestApp();

const indexer = () => new SearchIndexer(t.services.sql, t.services.log);

async function titles(org: TestOrg, project: string, search: string): Promise<string[]> {
  const reply = await org.get(`/api/events?project=${project}&search=${encodeURIComponent(search)}&limit=100`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.events.map((e: { title: string }) => e.title);
}

async function post(org: TestOrg, project: string, title: string, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await org.post('/api/events', { project, category: 'c', title, ...extra });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

async function progress(organizationId: string): Promise<number | null> {
  const [row] = await t.services.sql<{ through: number }[]>`
    SELECT indexed_through AS through FROM search_progress WHERE organization_id = ${organizationId}`;
  return row?.through ?? null;
}

async function entries(organizationId: string): Promise<number[]> {
  const rows = await t.services.sql<{ id: number }[]>`
    SELECT event_id AS id FROM event_search WHERE organization_id = ${organizationId} ORDER BY event_id`;
  return rows.map((row) => row.id);
}

describe('the search table and its indexer', () => {
  it('finds an event the moment it is committed, and the same events once it is indexed', async () => {
    const org = await t.org();
    const project = await org.project();
    await post(org, project, 'Quokka signed up');
    await post(org, project, 'plain', { description: 'a quokka in the description' });
    await post(org, project, 'tagged', { tags: { animal: 'QUOKKA' } });
    await post(org, project, 'metadata only', { metadata: { animal: 'quokka' } });
    const expected = ['tagged', 'plain', 'Quokka signed up'];
    assert.deepEqual(await titles(org, project, 'quokka'), expected);
    assert.equal(await progress(org.id), null);

    await indexer().runUntilIdle();
    assert.equal(await progress(org.id), 4);
    assert.deepEqual(await entries(org.id), [1, 2, 3, 4]);
    assert.deepEqual(await titles(org, project, 'quokka'), expected);
  });

  it('reads indexed events and the ones above the watermark together, each once', async () => {
    const org = await t.org();
    const project = await org.project();
    await post(org, project, 'wombat one');
    await post(org, project, 'other');
    await indexer().runUntilIdle();
    await post(org, project, 'wombat two');
    assert.deepEqual(await titles(org, project, 'wombat'), ['wombat two', 'wombat one']);
    const page = await org.get(`/api/events?project=${project}&search=wombat&limit=1`);
    assert.deepEqual(page.body.events.map((e: { title: string }) => e.title), ['wombat two']);
    const next = await org.get(`/api/events?project=${project}&search=wombat&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    assert.deepEqual(next.body.events.map((e: { title: string }) => e.title), ['wombat one']);
  });

  it('keeps each project to itself and forgets a deleted event', async () => {
    const org = await t.org();
    const project = await org.project('A');
    const other = await org.project('B');
    const doomed = await post(org, project, 'narwhal to delete');
    await post(org, project, 'narwhal kept');
    await post(org, other, 'narwhal elsewhere');
    await indexer().runUntilIdle();
    assert.deepEqual(await titles(org, project, 'narwhal'), ['narwhal kept', 'narwhal to delete']);
    assert.equal((await org.post(`/api/events/${doomed}/delete`)).status, 200);
    assert.deepEqual(await titles(org, project, 'narwhal'), ['narwhal kept']);
    assert.deepEqual(await entries(org.id), [2, 3]);
  });

  it('moves past events deleted before it reached them, and past the last id', async () => {
    const org = await t.org();
    const project = await org.project();
    await post(org, project, 'one');
    const second = await post(org, project, 'two');
    const third = await post(org, project, 'three');
    await org.post(`/api/events/${second}/delete`);
    await org.post(`/api/events/${third}/delete`);
    await indexer().runUntilIdle();
    assert.equal(await progress(org.id), third);
    assert.deepEqual(await entries(org.id), [1]);
    // Nothing left behind: another pass has no work for this organization.
    await indexer().runUntilIdle();
    assert.equal(await progress(org.id), third);
  });

  it('takes a batch again when an event of it is deleted while it is being indexed', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const title of ['one', 'two', 'three']) await post(org, project, title);
    const deleter = await t.services.sql.reserve();
    try {
      await deleter`BEGIN`;
      await deleter`DELETE FROM events WHERE organization_id = ${org.id} AND id = 2`;
      // The indexer reads event 2, then waits on the delete to check its entry's foreign key.
      const run = indexer().runUntilIdle();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await deleter`COMMIT`;
      await run;
    } finally {
      deleter.release();
    }
    await indexer().runUntilIdle();
    assert.equal(await progress(org.id), 3);
    assert.deepEqual(await entries(org.id), [1, 3]);
  });

  it('lets several indexers run at once without writing an entry twice', async () => {
    const orgs = await Promise.all([t.org(), t.org()]);
    for (const org of orgs) {
      const project = await org.project();
      for (let i = 0; i < 30; i++) await post(org, project, `platypus ${i}`);
    }
    await Promise.all([indexer().runUntilIdle(), indexer().runUntilIdle(), indexer().runUntilIdle()]);
    for (const org of orgs) {
      assert.equal(await progress(org.id), 30);
      assert.deepEqual(await entries(org.id), Array.from({ length: 30 }, (_, i) => i + 1));
    }
  });

  it('indexes an import like any other events', async () => {
    const org = await t.org();
    const events = Array.from({ length: 2500 }, (_, i) => ({ category: 'c', title: i === 1234 ? 'the axolotl' : `row ${i}`, created_at: 1_700_000_000 + i }));
    const reply = await org.post('/api/import', { projects: [{ name: 'Imported', events }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const project = reply.body.idMap['0'];
    assert.deepEqual(await titles(org, project, 'axolotl'), ['the axolotl']);
    await indexer().runUntilIdle();
    assert.equal(await progress(org.id), 2500);
    assert.deepEqual(await titles(org, project, 'axolotl'), ['the axolotl']);
  });

  it('indexes while writes go on without a pause as long as its nudge delay', async () => {
    // Started after the backlog of other tests' organizations is indexed, so that its first
    // pass is short and its next sweep (10 s) is not due during the writes below.
    await indexer().runUntilIdle();
    const running = indexer();
    running.start(t.services.bus);
    try {
      const org = await t.org();
      const project = await org.project();
      // A write every 50 ms, inside the 200 ms the indexer waits after being told of one.
      const giveUpAt = Date.now() + 8_000;
      let written = 0;
      while ((await progress(org.id)) === null && Date.now() < giveUpAt) {
        await post(org, project, `steady ${written++}`);
        await sleep(50);
      }
      const through = await progress(org.id);
      assert.ok(through !== null && through > 0, `nothing was indexed during ${written} writes`);
    } finally {
      await running.stop();
    }
  });
});

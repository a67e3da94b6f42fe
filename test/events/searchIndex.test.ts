import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pruneEvents } from '../../src/features/events/deleteQueries.ts';
import { blocksMatching, selectFeed } from '../../src/features/events/feedQueries.ts';
import { likePattern } from '../../src/features/events/listEvents.ts';
import { searchByBlocks } from '../../src/features/events/searchByBlocks.ts';
import { blockPatterns } from '../../src/features/events/searchWords.ts';
import { SearchIndexer } from '../../src/features/events/searchIndexer.ts';
import { writeBlocks } from '../../src/features/events/searchQueries.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

// Search blocks are written after commit by the indexer (migrations/126_search_blocks.sql);
// search must find the same events before, during and after it runs.
const t = useTestApp();

const indexer = () => new SearchIndexer(t.services.sql, t.services.log);

/**
 * `check` with an indexer running on the bus, started once the backlog of other tests'
 * organizations is indexed, so that its first pass is short and its next sweep (10 s) is not due
 * during the check.
 */
async function withRunningIndexer(check: () => Promise<void>): Promise<void> {
  await indexer().runUntilIdle();
  const running = indexer();
  running.start(t.services.bus);
  try {
    await check();
  } finally {
    await running.stop();
  }
}

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

interface BlockRow {
  projectId: string;
  first: number;
  last: number;
  ids: number[];
  words: string;
  stale: boolean;
}

async function blocks(organizationId: string): Promise<BlockRow[]> {
  return t.services.sql<BlockRow[]>`
    SELECT project_id AS "projectId", first_event_id AS first, last_event_id AS last, event_ids AS ids, words, stale
    FROM search_blocks WHERE organization_id = ${organizationId} ORDER BY first_event_id`;
}

/** The events the blocks hold, in id order. */
async function entries(organizationId: string): Promise<number[]> {
  return (await blocks(organizationId)).flatMap((block) => block.ids).sort((a, b) => a - b);
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
    assert.deepEqual(
      page.body.events.map((e: { title: string }) => e.title),
      ['wombat two'],
    );
    const next = await org.get(`/api/events?project=${project}&search=wombat&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    assert.deepEqual(
      next.body.events.map((e: { title: string }) => e.title),
      ['wombat one'],
    );
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
    // The delete marked its block; the indexer writes it again without the deleted event.
    assert.deepEqual(
      (await blocks(org.id)).map((block) => block.stale),
      [true, false],
    );
    await indexer().runUntilIdle();
    assert.deepEqual(await entries(org.id), [2, 3]);
    assert.deepEqual(
      (await blocks(org.id)).map((block) => [block.ids, block.words, block.stale]),
      [
        [[2], 'narwhal kept', false],
        [[3], 'narwhal elsewhere', false],
      ],
    );
    assert.deepEqual(await titles(org, project, 'narwhal'), ['narwhal kept']);
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

  it('makes a delete wait for an indexer that may be writing its event, then marks the block', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const title of ['one', 'two', 'three']) await post(org, project, title);
    // An indexer in the middle of its transaction: the progress row locked, the block not yet written.
    const indexing = await t.services.sql.reserve();
    try {
      await indexing`BEGIN`;
      await indexing`INSERT INTO search_progress (organization_id, indexed_through) VALUES (${org.id}, 0)`;
      let deleted = false;
      const deleting = org.post('/api/events/2/delete').then((reply) => {
        deleted = true;
        return reply;
      });
      // Negative check: nothing more may happen in this while; there is no event to wait for.
      await sleep(300);
      assert.equal(deleted, false, 'the delete did not wait for the indexer');
      await writeBlocks(indexing, org.id, [
        { projectId: project, firstEventId: 1, lastEventId: 3, eventIds: [1, 2, 3], words: 'one two three', newestMicros: null },
      ]);
      await indexing`UPDATE search_progress SET indexed_through = 3 WHERE organization_id = ${org.id}`;
      await indexing`COMMIT`;
      assert.equal((await deleting).status, 200);
    } finally {
      indexing.release();
    }
    assert.deepEqual(
      (await blocks(org.id)).map((block) => block.stale),
      [true],
    );
    await indexer().runUntilIdle();
    assert.deepEqual(
      (await blocks(org.id)).map((block) => [block.first, block.last, block.ids, block.words, block.stale]),
      [[1, 3, [1, 3], 'one three', false]],
    );
  });

  it('removes a block whose events are all deleted, by the API or by retention', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const title of ['old one', 'old two']) await post(org, project, title);
    const other = await org.project('Other');
    await post(org, other, 'kept');
    await indexer().runUntilIdle();
    assert.equal((await blocks(org.id)).length, 2);
    await org.post('/api/events/1/delete');
    await t.services.sql`UPDATE events SET created_at = now() - interval '3 days' WHERE organization_id = ${org.id} AND id = 2`;
    const pruned = await pruneEvents(t.services.sql, { organizationId: org.id, projectId: project, retentionDays: 1, batch: 100, timeZone: 'UTC' });
    assert.equal(pruned, 1);
    await indexer().runUntilIdle();
    assert.deepEqual(
      (await blocks(org.id)).map((block) => [block.projectId, block.ids, block.words]),
      [[other, [3], 'kept']],
    );
  });

  it('cuts blocks by project and by 64 events, and finds a match in any of them', async () => {
    const org = await t.org();
    const a = await org.project('A');
    const b = await org.project('B');
    const events = Array.from({ length: 150 }, (_, i) => ({
      project: i % 3 === 0 ? b : a,
      category: 'c',
      title: i === 140 ? 'Order #12345 placed by Zoë' : `event ${i}`,
    }));
    // One batch, so that another file's indexer, indexing every organization, cannot cut a block
    // halfway through them.
    assert.equal((await org.post('/api/events/batch', { events })).status, 201);
    await indexer().runUntilIdle();
    const written = await blocks(org.id);
    assert.deepEqual(
      written.map((block) => [block.projectId === a ? 'A' : 'B', block.ids.length]),
      [
        ['B', 50],
        ['A', 64],
        ['A', 36],
      ],
    );
    assert.ok(written.every((block) => block.ids.every((id) => id >= block.first && id <= block.last)));
    for (const search of ['ORDER #123', 'der #12345 pla', 'zoë', '#1', 'd by Z', 'Order #12345 placed by Zoë']) {
      assert.deepEqual(await titles(org, a, search), ['Order #12345 placed by Zoë'], search);
    }
    assert.deepEqual(await titles(org, b, 'placed'), []);
    assert.deepEqual(await titles(org, a, 'Order #12345  placed'), []);
  });

  it('finds the same page by walking the feed as through the blocks, for a text in many blocks', async () => {
    const org = await t.org();
    const project = await org.project('A');
    const other = await org.project('B');
    const events = Array.from({ length: 200 }, (_, i) => ({
      project: i % 5 === 0 ? other : project,
      category: 'c',
      title: i % 7 === 0 ? `Order #${i} for dingo` : `event ${i}`,
    }));
    // One batch, as above: the three blocks counted below are the indexer's whole blocks.
    assert.equal((await org.post('/api/events/batch', { events })).status, 201);
    await indexer().runUntilIdle();
    const query = (search: string, before?: { micros: bigint; id: number }) => ({
      organizationId: org.id,
      projectId: project,
      pattern: likePattern(search),
      blockPatterns: blockPatterns(search),
      limit: 11,
      before,
    });
    const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
    assert.equal((await blocksMatching(t.services.sql, query('DINGO'), 100)).blocks.length, 3);
    assert.equal((await blocksMatching(t.services.sql, query('DINGO'), 2)).blocks.length, 2);
    for (const search of ['DINGO', 'r #1', 'event 1']) {
      const walked = await selectFeed(t.services.sql, query(search));
      assert.deepEqual(ids(walked), ids(await searchByBlocks(t.services.sql, query(search))), search);
      const last = walked.at(-1)!;
      const before = { micros: BigInt(last.createdMicros), id: last.id };
      assert.deepEqual(ids(await selectFeed(t.services.sql, query(search, before))), ids(await searchByBlocks(t.services.sql, query(search, before))));
    }
    assert.equal((await selectFeed(t.services.sql, query('dingo'))).length, 11);
  });

  it('checks blocks newest first, and stops once no block left can hold an event of the page', async () => {
    const org = await t.org();
    const project = await org.project();
    // Times out of id order (given by the client), several events to a second.
    const base = 1_700_000_000;
    const times = Array.from({ length: 90 }, (_, i) => base + ((i * 37) % 90) * 60 + (i % 3));
    for (const [i, time] of times.entries()) await post(org, project, i % 4 === 0 ? `wombat ${i}` : `event ${i}`, { created_at: time });
    await indexer().runUntilIdle();
    // Many small blocks instead of the indexer's two, each with its true bound, but for one.
    const events = await t.services.sql<{ id: number; micros: string }[]>`
      SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
      FROM events WHERE organization_id = ${org.id} ORDER BY id`;
    const small = Array.from({ length: 30 }, (_, b) => events.slice(b * 3, b * 3 + 3)).map((held) => ({
      projectId: project,
      firstEventId: held[0]!.id,
      lastEventId: held.at(-1)!.id,
      eventIds: held.map((e) => e.id),
      words: 'wombat event',
      newestMicros: held.map((e) => e.micros).reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b)),
    }));
    await t.services.sql`DELETE FROM search_blocks WHERE organization_id = ${org.id}`;
    await writeBlocks(t.services.sql, org.id, small);
    const query = (search: string, limit: number, before?: { micros: bigint; id: number }) => ({
      organizationId: org.id,
      projectId: project,
      pattern: likePattern(search),
      blockPatterns: blockPatterns(search),
      limit,
      before,
    });
    const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
    for (const [search, limit] of [
      ['wombat', 4],
      ['wombat', 30],
      ['event 1', 3],
      ['EVENT', 17],
    ] as const) {
      let before: { micros: bigint; id: number } | undefined;
      for (let page = 0; page < 3; page++) {
        const walked = await selectFeed(t.services.sql, query(search, limit, before));
        assert.deepEqual(ids(await searchByBlocks(t.services.sql, query(search, limit, before))), ids(walked), `${search}, page ${page}`);
        const last = walked.at(-1);
        if (!last) break;
        before = { micros: BigInt(last.createdMicros), id: last.id };
      }
    }
    // A block whose bound is older than its events is never reached once the page is full: the
    // search stops on the bound. Unknown (null), it is checked first.
    const newest = (await selectFeed(t.services.sql, query('wombat', 1)))[0]!;
    const holder = small.find((block) => block.eventIds.includes(newest.id))!;
    await writeBlocks(t.services.sql, org.id, [{ ...holder, newestMicros: String(BigInt(base) * 1_000_000n - 1n) }]);
    assert.notEqual(ids(await searchByBlocks(t.services.sql, query('wombat', 2)))[0], newest.id);
    await writeBlocks(t.services.sql, org.id, [{ ...holder, newestMicros: null }]);
    assert.equal(ids(await searchByBlocks(t.services.sql, query('wombat', 2)))[0], newest.id);
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
      assert.deepEqual(
        await entries(org.id),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
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

  it('indexes an import once it is announced, without waiting for its sweep', async () => {
    await withRunningIndexer(async () => {
      const org = await t.org();
      const events = Array.from({ length: 300 }, (_, i) => ({ category: 'c', title: `row ${i}`, created_at: 1_700_000_000 + i }));
      assert.equal((await org.post('/api/import', { projects: [{ name: 'Imported', events }] })).status, 200);
      await waitUntil(async () => (await progress(org.id)) === 300, {
        timeoutMs: 8_000,
        intervalMs: 50,
        message: 'the import to be indexed through event 300',
      });
    });
  });

  it('indexes while writes go on without a pause as long as its nudge delay', async () => {
    await withRunningIndexer(async () => {
      const org = await t.org();
      const project = await org.project();
      // A write every 50 ms, inside the 200 ms the indexer waits after being told of one.
      const giveUpAt = Date.now() + 8_000;
      let written = 0;
      while ((await progress(org.id)) === null && Date.now() < giveUpAt) {
        await post(org, project, `steady ${written++}`);
        // Time itself: the writes' pace is what is tested.
        await sleep(50);
      }
      const through = await progress(org.id);
      assert.ok(through !== null && through > 0, `nothing was indexed during ${written} writes`);
    });
  });
});

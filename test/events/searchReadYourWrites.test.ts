import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchIndexer } from '../../src/features/events/searchIndexer.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

// An event whose 201 has been sent is found by every search that starts afterwards, while the
// indexer writes blocks and moves the watermark under the reader (decision 167). A database of
// its own: the running indexer would otherwise cut other files' events into small blocks.
const t = useTestApp({}, { ownDatabase: true });

const ROUNDS = Number(process.env.EVENTLOG_SEARCH_ROUNDS ?? 1000);
const WRITERS = 4;

async function keepWriting(org: TestOrg, project: string, stop: { now: boolean }): Promise<number> {
  let written = 0;
  while (!stop.now) {
    const reply = await org.post('/api/events', { project, category: 'noise', title: `background write ${written}` });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    written++;
  }
  return written;
}

describe('search reads its own writes', () => {
  it('finds every acknowledged event at once, beside concurrent writers and a running indexer', async () => {
    const indexer = new SearchIndexer(t.services.sql, t.services.log);
    await indexer.runUntilIdle();
    indexer.start(t.services.bus);
    const org = await t.org();
    const searched = await org.project('searched');
    const busy = await Promise.all(Array.from({ length: WRITERS }, (_, i) => org.project(`busy ${i}`)));
    const stop = { now: false };
    const writers = busy.map((project) => keepWriting(org, project, stop));
    const missed: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const word = `zebra${round}x${Date.now().toString(36)}`;
        const written = await org.post('/api/events', { project: searched, category: 'c', title: `Found ${word} here` });
        assert.equal(written.status, 201, JSON.stringify(written.body));
        const found = await org.get(`/api/events?project=${searched}&search=${word.toUpperCase()}`);
        assert.equal(found.status, 200, JSON.stringify(found.body));
        if (!found.body.events.some((e: { id: number }) => e.id === written.body.id)) missed.push(round);
      }
    } finally {
      stop.now = true;
      await Promise.all(writers);
      await indexer.stop();
    }
    assert.deepEqual(missed, [], `${missed.length} of ${ROUNDS} searches missed the event just written`);
  });
});

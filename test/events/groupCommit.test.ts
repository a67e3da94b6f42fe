// The ingest batcher's group commit: one statement for an organization's rows at a time, the
// rows that arrive meanwhile written together next, other organizations never held up by it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import postgres from 'postgres';
import { IngestBatcher } from '../../src/features/events/ingestBatcher.ts';
import { type EventDraft, validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { type TestOrg, holdEventCounter, useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

const t = useTestApp();

/** Time itself: later inserts arrive on later turns of the event loop, while the first one is held. */
const nextTurns = () => sleep(20);

async function organizationWithEvents(
  options: { monthlyEventCap?: number } = {},
): Promise<{ org: TestOrg; draft: ReturnType<typeof validateEventInput> & { organizationId: string } }> {
  const org = await t.org(options);
  const project = await org.project();
  // The first event makes the counter row the tests hold.
  assert.equal((await org.post('/api/events', { project, category: 'c', title: 'first' })).status, 201);
  return { org, draft: { ...validateEventInput({ project, category: 'c', title: 'batched' }), organizationId: org.id } };
}

/** Clients' batches of `sizes` drafts, each handed to the batcher one turn after the one before. */
async function batchesOnLaterTurns(batcher: IngestBatcher, organizationId: string, draft: EventDraft, sizes: number[]) {
  const batches = [];
  for (const size of sizes) {
    batches.push(
      batcher.insertWhole(
        organizationId,
        Array.from({ length: size }, () => draft),
      ),
    );
    await nextTurns();
  }
  return batches;
}

describe('group commit (the ingest batcher)', () => {
  it('writes the rows that arrive while an organization has a statement in flight as one batch after it', async () => {
    const { org, draft } = await organizationWithEvents();
    const batcher = new IngestBatcher(t.services.sql, { timeZone: t.services.config.timeZone });
    const held = await holdEventCounter(t.services.sql, org.id);
    const first = batcher.insert(draft);
    const later = [];
    for (let i = 0; i < 5; i++) {
      await nextTurns();
      later.push(batcher.insert(draft));
    }
    await held.release();
    const [one, ...rest] = (await Promise.all([first, ...later])) as Array<{ id: number; createdMicros: string }>;
    // Rows of one transaction share its time; two transactions' times differ.
    assert.equal(new Set(rest.map((row) => row.createdMicros)).size, 1, 'the five later rows were written by one statement');
    assert.notEqual(rest[0]!.createdMicros, one!.createdMicros);
    assert.deepEqual(
      rest.map((row) => row.id),
      [2, 3, 4, 5, 6].map((n) => n + one!.id - 1),
    );
    await batcher.drain();
  });

  it('fails the rows queued behind a statement that could not connect at once, instead of trying again for each', async () => {
    const { draft } = await organizationWithEvents();
    // A server that takes connections and never answers: each connect times out after 1 s.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const unreachable = postgres({ host: '127.0.0.1', port, user: 'nobody', database: 'none', connect_timeout: 1, max: 4, onnotice: () => {} });
    try {
      const batcher = new IngestBatcher(unreachable, { timeZone: t.services.config.timeZone });
      const settled = (row: Promise<unknown>) =>
        row.then(
          () => 'written',
          (error: { code?: string }) => ({ code: error.code, at: performance.now() }),
        );
      const first = settled(batcher.insert(draft));
      const later = [];
      for (let i = 0; i < 3; i++) {
        await nextTurns();
        later.push(settled(batcher.insert(draft)));
      }
      const [one, ...rest] = (await Promise.all([first, ...later])) as Array<{ code: string; at: number }>;
      assert.equal(one!.code, 'CONNECT_TIMEOUT');
      for (const row of rest) {
        assert.equal(row.code, 'CONNECT_TIMEOUT');
        assert.ok(row.at - one!.at < 500, `a queued row failed ${Math.round(row.at - one!.at)} ms after the first`);
      }
    } finally {
      await unreachable.end({ timeout: 1 });
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("writes another organization's rows while one organization waits", async () => {
    const waiting = await organizationWithEvents();
    const other = await organizationWithEvents();
    const batcher = new IngestBatcher(t.services.sql, { timeZone: t.services.config.timeZone });
    const held = await holdEventCounter(t.services.sql, waiting.org.id);
    let waitingDone = false;
    const blocked = batcher.insert(waiting.draft).then((row) => {
      waitingDone = true;
      return row;
    });
    await nextTurns();
    const written = (await batcher.insert(other.draft)) as { id: number };
    assert.equal(written.id, 2);
    assert.equal(waitingDone, false);
    await held.release();
    assert.equal(((await blocked) as { id: number }).id, 2);
    await batcher.drain();
  });

  it("writes clients' batches that wait for their organization's turn by one statement, each batch its own run of ids", async () => {
    const { org, draft } = await organizationWithEvents();
    const batcher = new IngestBatcher(t.services.sql, { timeZone: t.services.config.timeZone });
    const held = await holdEventCounter(t.services.sql, org.id);
    // The first batch is held in the database, the second on its way behind it; the last two wait.
    const batches = await batchesOnLaterTurns(batcher, org.id, draft, [1, 3, 1, 2]);
    await held.release();
    const rows = (await Promise.all(batches)).map((outcome) => (outcome as { inserted: Array<{ ord: number; id: number; createdMicros: string }> }).inserted);
    const timeOf = (batch: number) => new Set(rows[batch]!.map((row) => row.createdMicros));
    assert.equal(timeOf(0).size, 1);
    assert.deepEqual(timeOf(2), timeOf(3), 'the two waiting batches were written by one statement');
    assert.notDeepEqual(timeOf(1), timeOf(2));
    // The two statements on their way may take the counter in either order (on Citus the second
    // may still be connecting); within one statement the batches keep the queue's order.
    const firstId = rows[0]![0]!.id;
    const offsets = rows.map((batch) => batch.map((row) => row.id - firstId));
    assert.deepEqual(
      rows.map((batch) => batch.map((row) => row.ord)),
      [[0], [0, 1, 2], [0], [0, 1]],
    );
    for (const batch of offsets)
      assert.deepEqual(
        batch,
        batch.map((_, i) => batch[0]! + i),
        'each batch is one run of ids',
      );
    assert.equal(offsets[3]![0], offsets[2]![0]! + 1, 'the merged batches follow each other');
    assert.deepEqual(
      offsets.flat().sort((x, y) => x - y),
      [0, 1, 2, 3, 4, 5, 6],
    );
    await batcher.drain();
  });

  it('writes waiting batches that pass the monthly cap together one by one, in order, each getting its own answer', async () => {
    // The first event leaves 4 of the cap of 5 and the first batch (held) 3. The second (on its
    // way behind it) and the waiting 4 + 1 may take the counter in either order: 4 + 1 never fit
    // together, 4 never fits alone, and 1 and 1 always do.
    const { org, draft } = await organizationWithEvents({ monthlyEventCap: 5 });
    const batcher = new IngestBatcher(t.services.sql, { timeZone: t.services.config.timeZone });
    const held = await holdEventCounter(t.services.sql, org.id);
    const batches = await batchesOnLaterTurns(batcher, org.id, draft, [1, 1, 4, 1]);
    await held.release();
    const outcomes = await Promise.all(batches);
    assert.deepEqual(
      outcomes.map((outcome) => ('refused' in outcome ? outcome.refused : outcome.inserted.length)),
      [1, 1, 'cap', 1],
    );
    await batcher.drain();
  });
});

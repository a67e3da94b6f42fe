import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { MAX_ID } from '../../src/lib/idSpace.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

/** extensions.md, "Batch ingestion": POST /api/events/batch. */
const t = useTestApp();

const BATCH = '/api/events/batch';

const item = (project: string, title: string, extra: Record<string, unknown> = {}) => ({ project, category: 'jobs', title, ...extra });

async function feed(org: TestOrg, project: string): Promise<Array<{ id: number; title: string }>> {
  const reply = await org.get(`/api/events?project=${project}&limit=100`);
  assert.equal(reply.status, 200);
  return reply.body.events;
}

describe('POST /api/events/batch', () => {
  it('writes every item in one go and answers the event objects in item order, ids increasing', async () => {
    const org = await t.org();
    const a = await org.project('Alpha');
    const b = await org.project('Beta');
    const reply = await org.post(BATCH, {
      events: [
        item(a, 'first', { tags: { n: 1 }, metadata: { deep: [1, 2] }, icon: '🚀', user_id: 'u1' }),
        item('Beta', 'second, project by name'),
        item(a, 'third', { created_at: 1_700_000_000, description: 'done', url: 'https://example.com/x' }),
      ],
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const events = reply.body.events;
    assert.deepEqual(
      events.map((e: { title: string }) => e.title),
      ['first', 'second, project by name', 'third'],
    );
    assert.deepEqual(
      events.map((e: { projectId: string }) => e.projectId),
      [a, b, a],
    );
    assert.ok(events[0].id < events[1].id && events[1].id < events[2].id, JSON.stringify(events.map((e: { id: number }) => e.id)));
    assert.deepEqual(events[0].tags, { n: 1 });
    assert.deepEqual(events[0].metadata, { deep: [1, 2] });
    assert.equal(events[0].user_id, 'u1');
    assert.equal(events[2].createdAt, '2023-11-14T22:13:20.000Z');
    assert.equal(events[0].favorited, false);
    // What the reply says is what was stored.
    for (const event of events) assert.deepEqual((await org.get(`/api/events/${event.id}`)).body, event);
    // A single event afterwards takes the next id.
    const next = await org.post('/api/events', item(a, 'after'));
    assert.equal(next.body.id, events[2].id + 1);
  });

  it("shares its organization's turn with single events: every id once, each batch in one run of ids, committed before the 201", async () => {
    const org = await t.org();
    const project = await org.project();
    const batches = Array.from({ length: 3 }, (_, b) => org.post(BATCH, { events: Array.from({ length: 50 }, (_, i) => item(project, `b${b}-${i}`)) }));
    const singles = Array.from({ length: 20 }, (_, i) => org.post('/api/events', item(project, `s${i}`)));
    const replies = await Promise.all([...batches, ...singles]);
    assert.ok(
      replies.every((reply) => reply.status === 201),
      JSON.stringify(replies.map((r) => r.status)),
    );
    const ids = replies.flatMap((reply) => (reply.body.events ?? [reply.body]).map((e: { id: number }) => e.id));
    assert.equal(new Set(ids).size, 170);
    for (const reply of replies.slice(0, 3)) {
      const batchIds = reply.body.events.map((e: { id: number }) => e.id);
      assert.deepEqual(
        batchIds,
        batchIds.map((_: number, i: number) => batchIds[0] + i),
      );
    }
    // Committed before the 201: another connection sees every event at once.
    const [row] = await t.services.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events WHERE organization_id = ${org.id}`;
    assert.equal(row?.count, 170);
  });

  it('refuses the whole batch for one bad item: 400 {error, index}, the first refused item, nothing written', async () => {
    const org = await t.org();
    const project = await org.project();
    const cases: Array<[string, unknown[], number]> = [
      ['a missing title', [item(project, 'ok'), { project, category: 'c' }], 1],
      ['a wrong type', [item(project, 'ok'), item(project, 'ok'), item(project, 'x', { notify: 'yes' })], 2],
      ['a blank title before a wrong type', [item(project, 'ok'), item(project, '  '), item(project, 'x', { tags: 'no' })], 1],
      ['an over-long category', [{ project, category: 'c'.repeat(101), title: 't' }], 0],
      ['a NUL character', [item(project, 'ok'), item(project, 'ok'), item(project, 'a\u0000b')], 2],
      ['an item that is not an object', [item(project, 'ok'), 'event'], 1],
      ['created_at out of range', [item(project, 'x', { created_at: -1 })], 0],
    ];
    for (const [label, events, index] of cases) {
      const reply = await org.post(BATCH, { events });
      assert.equal(reply.status, 400, `${label}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.index, index, `${label}: ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
      assert.deepEqual(Object.keys(reply.body).sort(), ['error', 'index']);
    }
    assert.deepEqual(await feed(org, project), []);
  });

  it('answers a clear 400 for an empty batch, over 1,000 items, or no events array; 413 over 5 MB', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const body of [{ events: [] }, {}, { events: 'x' }, { events: Array.from({ length: 1001 }, (_, i) => item(project, `e${i}`)) }]) {
      const reply = await org.post(BATCH, body);
      assert.equal(reply.status, 400, JSON.stringify(reply.body).slice(0, 200));
      assert.match(reply.body.error, /events/);
      assert.equal(reply.body.index, undefined);
    }
    const description = 'd'.repeat(60_000);
    const huge = { events: Array.from({ length: 100 }, (_, i) => item(project, `e${i}`, { description })) };
    const tooLarge = await org.post(BATCH, huge);
    assert.equal(tooLarge.status, 413);
    assert.deepEqual(Object.keys(tooLarge.body), ['error']);
    assert.deepEqual(await feed(org, project), []);
    // 1,000 items just under 5 MB are taken.
    const full = { events: Array.from({ length: 1000 }, (_, i) => item(project, `e${i}`, { description: 'd'.repeat(5000) })) };
    assert.ok(JSON.stringify(full).length < 5 * 1024 * 1024);
    const taken = await org.post(BATCH, full);
    assert.equal(taken.status, 201);
    assert.equal(taken.body.events.length, 1000);
  });

  it("answers 404 {error, index} for a project that is not the organization's, and for one a limited key may not write", async () => {
    const org = await t.org();
    const other = await t.org();
    const mine = await org.project('Mine');
    const theirs = await other.project('Theirs');
    const second = await org.project('Second');
    const unknown = await org.post(BATCH, { events: [item(mine, 'ok'), item(theirs, 'x')] });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: 'Project not found', index: 1 });
    const byName = await org.post(BATCH, { events: [item('Theirs', 'x')] });
    assert.deepEqual([byName.status, byName.body.index], [404, 0]);

    const { key } = await createKey({ ctx: org.ctx, input: { access: 'ingest', projects: [mine] } });
    const limited = (body: unknown) => t.request({ method: 'POST', url: BATCH, body, headers: { authorization: `Bearer ${key}` } });
    const refused = await limited({ events: [item(mine, 'ok'), item(mine, 'ok'), item('Second', 'x')] });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, { error: 'Project not found', index: 2 });
    assert.deepEqual(await feed(org, mine), []);
    assert.deepEqual(await feed(org, second), []);
    const allowed = await limited({ events: [item(mine, 'ok'), item('Mine', 'ok too')] });
    assert.equal(allowed.status, 201);
    const reader = (await createKey({ ctx: org.ctx, input: { access: 'read' } })).key;
    const read = await t.request({ method: 'POST', url: BATCH, body: { events: [item(mine, 'x')] }, headers: { authorization: `Bearer ${reader}` } });
    assert.equal(read.status, 403);
  });

  it('refuses a batch that would pass the monthly cap whole: 429, nothing written', async () => {
    const org = await t.org({ monthlyEventCap: 5 });
    const project = await org.project();
    const over = await org.post(BATCH, { events: Array.from({ length: 6 }, (_, i) => item(project, `e${i}`)) });
    assert.equal(over.status, 429);
    assert.deepEqual(Object.keys(over.body), ['error']);
    assert.deepEqual(await feed(org, project), []);
    assert.equal((await org.post(BATCH, { events: Array.from({ length: 4 }, (_, i) => item(project, `e${i}`)) })).status, 201);
    assert.equal((await org.post(BATCH, { events: [item(project, 'x'), item(project, 'y')] })).status, 429);
    assert.equal((await org.post(BATCH, { events: [item(project, 'last')] })).status, 201);
    assert.equal((await feed(org, project)).length, 5);
  });

  it('answers 507 and writes nothing when the batch does not fit in the id space', async () => {
    const org = await t.org();
    const project = await org.project();
    await t.services.sql`
      INSERT INTO id_counters (organization_id, kind, last_id) VALUES (${org.id}, 'event', ${MAX_ID - 2})
      ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = excluded.last_id`;
    const refused = await org.post(BATCH, { events: [item(project, 'a'), item(project, 'b'), item(project, 'c')] });
    assert.equal(refused.status, 507);
    assert.deepEqual(await feed(org, project), []);
    const fits = await org.post(BATCH, { events: [item(project, 'a'), item(project, 'b')] });
    assert.deepEqual(
      fits.body.events.map((e: { id: number }) => e.id),
      [MAX_ID - 1, MAX_ID],
    );
  });

  it('applies Idempotency-Key to the whole batch: a repeat answers the first answer and writes nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const body = { events: [item(project, 'a'), item(project, 'b')] };
    const headers = { 'idempotency-key': 'batch-1' };
    const first = await org.post(BATCH, body, headers);
    assert.equal(first.status, 201);
    const again = await org.post(BATCH, body, headers);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal((await feed(org, project)).length, 2);
    const changed = await org.post(BATCH, { events: [item(project, 'c')] }, headers);
    assert.equal(changed.status, 409);
    // The key belongs to this route alone.
    assert.equal((await org.post('/api/events', item(project, 'single'), headers)).status, 201);
  });

  it("counts each item of a browser key's batch toward its address's limit", async () => {
    const org = await t.org();
    const project = await org.project();
    const { key } = await createKey({ ctx: org.ctx, input: { access: 'ingest', origins: ['https://shop.example.com'] } });
    const send = (count: number, address = '198.51.100.20') =>
      t.app.inject({
        method: 'POST',
        url: BATCH,
        remoteAddress: address,
        headers: { authorization: `Bearer ${key}`, origin: 'https://shop.example.com', 'content-type': 'application/json' },
        payload: JSON.stringify({ events: Array.from({ length: count }, (_, i) => item(project, `v${i}`)) }),
      });
    const intoMinute = Date.now() % 60_000;
    // Time itself: the rate window of the next minute.
    if (intoMinute > 50_000) await sleep(60_000 - intoMinute + 50);
    assert.equal((await send(50)).statusCode, 201);
    const over = await send(11);
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    assert.equal(over.headers['access-control-allow-origin'], 'https://shop.example.com');
    assert.equal((await send(10)).statusCode, 201, 'what fits is still taken');
    assert.equal((await send(1)).statusCode, 429);
    assert.equal((await send(61, '198.51.100.21')).statusCode, 429, 'more than a minute allows is never taken');
    assert.equal((await feed(org, project)).length, 60);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriesDocument, tagValueKey } from '../../src/features/charts/breakdown.ts';
import { scanDaySeries } from '../../src/features/charts/queries.ts';
import { TagRollupBackfiller, backfillTagRange } from '../../src/features/charts/tagRollupBackfiller.ts';
import { lockTagKey } from '../../src/features/charts/tagRollupQueries.ts';
import { MAX_ROLLED_UP_KEYS, MAX_ROLLED_UP_KEY_LENGTH, registerTagKey } from '../../src/features/charts/tagRollupReady.ts';
import { RetentionPruner } from '../../src/features/events/retentionPruner.ts';
import { insertEvents } from '../../src/features/events/queries.ts';
import { type EventDraft, validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { withTransaction } from '../../src/db/client.ts';
import { type TestOrg, holdEventCounter, useTestApp } from '../helpers.ts';

// Breakdowns by tag served from the per-day counts by tag value (decision 131): the same answers
// as reading the events, after every kind of write.

const t = useTestApp();
type Series = Record<string, Array<{ day: string; count: number }>>;

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

/** Noon of the day `daysAgo` days before today in the server's zone, as epoch seconds. */
async function noon(daysAgo: number): Promise<number> {
  const [row] = await t.services.sql<{ seconds: number }[]>`
    SELECT extract(epoch FROM ((current_date - ${daysAgo}::int) + time '12:00')::timestamptz)::float8 AS seconds`;
  return row!.seconds;
}

async function today(daysAgo = 0): Promise<string> {
  const [row] = await t.services.sql<{ day: string }[]>`SELECT (current_date - ${daysAgo}::int)::text AS day`;
  return row!.day;
}

/** A draft whose tags are the raw JSON text given (so `1.50` reaches the database as written). */
async function draft(project: string, daysAgo: number, category: string, tagsJson: string | null, second = 0): Promise<EventDraft> {
  return { ...validateEventInput({ project, category, title: 't', created_at: (await noon(daysAgo)) + second }), tags: tagsJson };
}

async function write(org: TestOrg, drafts: EventDraft[]): Promise<number[]> {
  const { inserted } = await insertEvents(t.services.sql, org.id, drafts, { timeZone: t.services.config.timeZone });
  assert.equal(inserted.length, drafts.length);
  return inserted.map((row) => row.id);
}

async function chart(org: TestOrg, project: string, query: string): Promise<Series> {
  const reply = await org.get(`/api/charts?project=${project}&${query}`);
  assert.equal(reply.status, 200, `${query}: ${reply.raw.body}`);
  return JSON.parse(reply.raw.body) as Series;
}

/** What reading the range's events answers (the reference, decision 130). */
async function scanned(org: TestOrg, project: string, tagKey: string, days = 30, category?: string): Promise<Series> {
  const rows = await scanDaySeries(t.services.sql, { organizationId: org.id, projectId: project, days, category, tags: [], tagKey });
  return JSON.parse(seriesDocument(rows.map((row) => ({ key: tagValueKey(row.type, row.text), day: row.day, count: row.count })))) as Series;
}

async function keyState(org: TestOrg, project: string, tagKey: string): Promise<{ countedAfterId: number; backfilledUpTo: number } | undefined> {
  const [row] = await t.services.sql<{ countedAfterId: number; backfilledUpTo: number }[]>`
    SELECT counted_after_id AS "countedAfterId", backfilled_up_to AS "backfilledUpTo" FROM tag_rollup_keys
    WHERE organization_id = ${org.id} AND project_id = ${project} AND tag_key = ${tagKey}`;
  return row;
}

/** Charts by the key once (which registers it), waits for its backfill, checks it serves charts. */
async function rollUp(org: TestOrg, project: string, tagKey: string): Promise<void> {
  await chart(org, project, `groupBy=${encodeURIComponent(`tag:${tagKey}`)}`);
  await t.services.tagRollups.backfill(org.id, project, tagKey);
  const state = await keyState(org, project, tagKey);
  assert.ok(state && state.backfilledUpTo >= state.countedAfterId, `${tagKey} backfilled: ${JSON.stringify(state)}`);
}

/** The rollup's answer equals the scan's, for the default window, one day, a category and a year. */
async function assertSameAsScan(org: TestOrg, project: string, tagKey: string, category = 'c'): Promise<Series> {
  const key = encodeURIComponent(`tag:${tagKey}`);
  const served = await chart(org, project, `groupBy=${key}`);
  assert.deepEqual(served, await scanned(org, project, tagKey));
  assert.deepEqual(await chart(org, project, `groupBy=${key}&days=1`), await scanned(org, project, tagKey, 1));
  assert.deepEqual(await chart(org, project, `groupBy=${key}&days=365`), await scanned(org, project, tagKey, 365));
  assert.deepEqual(await chart(org, project, `groupBy=${key}&category=${category}`), await scanned(org, project, tagKey, 30, category));
  return served;
}

const MIXED_TAGS = [
  '{"v":"pro"}',
  '{"v":"pro","w":1}',
  '{"v":3}',
  '{"v":"3"}',
  '{"v":3.0}',
  '{"v":1.50}',
  '{"v":1.5}',
  '{"v":1e21}',
  '{"v":true}',
  '{"v":"true"}',
  '{"v":null}',
  '{"v":"null"}',
  '{"v":""}',
  '{"v":{"b":1,"a":2}}',
  '{"v":["x"]}',
  '{"w":1}',
  null,
];

/** Every MIXED_TAGS value on days 0, 2 and 40 ago, in categories c and d: 102 events. */
async function mixed(project: string): Promise<EventDraft[]> {
  const drafts: EventDraft[] = [];
  for (const daysAgo of [0, 2, 40]) {
    for (const [i, tags] of MIXED_TAGS.entries()) {
      drafts.push(await draft(project, daysAgo, 'c', tags, i), await draft(project, daysAgo, i % 3 === 0 ? 'c' : 'd', tags, i));
    }
  }
  return drafts;
}

describe('GET /api/charts groupBy served by the per-day counts by tag value', () => {
  it('answers exactly what reading the events answers, values grouped as the scan groups them', async () => {
    const { org, project } = await setup();
    await write(org, await mixed(project));
    const first = await chart(org, project, 'groupBy=tag:v');
    assert.deepEqual(first, await scanned(org, project, 'v'), 'the first request reads the events');
    await rollUp(org, project, 'v');
    const served = await assertSameAsScan(org, project, 'v');
    assert.deepEqual(served, first);
    const [d2, d0] = [await today(2), await today(0)];
    const per = (n: number) => [
      { day: d2, count: n },
      { day: d0, count: n },
    ];
    assert.deepEqual(served, {
      '': per(2),
      '1.5': per(4),
      '1e+21': per(2),
      '3': per(6),
      '["x"]': per(2),
      '(none)': per(4),
      null: per(4),
      pro: per(4),
      true: per(4),
      '{"a": 2, "b": 1}': per(2),
    });

    // Served by the rollup: a count changed behind its back shows; a tag filter still reads the events.
    await t.services.sql`
      UPDATE tag_daily_counts SET count = count + 100
      WHERE organization_id = ${org.id} AND project_id = ${project} AND tag_key = 'v' AND value = '"pro"' AND day = current_date AND category = 'c'`;
    assert.equal((await chart(org, project, 'groupBy=tag:v')).pro!.at(-1)!.count, 104);
    assert.deepEqual(await chart(org, project, 'groupBy=tag:v&tag=w:1'), { '(none)': per(2), pro: per(2) });
  });

  it('keeps exact counts through ingest after the backfill, single events and batches', async () => {
    const { org, project } = await setup();
    await write(org, [await draft(project, 1, 'c', '{"plan":"pro"}')]);
    await rollUp(org, project, 'plan');
    await write(org, [await draft(project, 1, 'c', '{"plan":"pro"}'), await draft(project, 0, 'd', '{"plan":"free"}'), await draft(project, 0, 'c', null)]);
    const reply = await org.post('/api/events', { project, category: 'c', title: 't', tags: { plan: 'pro' } });
    assert.equal(reply.status, 201);
    await write(org, await mixed(project));
    const served = await assertSameAsScan(org, project, 'plan');
    assert.deepEqual(served.pro, [
      { day: await today(1), count: 2 },
      { day: await today(0), count: 1 },
    ]);
    assert.deepEqual(await assertSameAsScan(org, project, 'v'), await scanned(org, project, 'v'));
  });

  it('takes deleted events out, whether ingest or the backfill counted them', async () => {
    const { org, project } = await setup();
    const old = await write(org, await mixed(project));
    await rollUp(org, project, 'v');
    const fresh = await write(org, await mixed(project));
    for (const id of [...old.slice(0, 40), ...fresh.slice(10, 50)]) {
      assert.equal((await org.post(`/api/events/${id}/delete`)).status, 200);
    }
    await assertSameAsScan(org, project, 'v');
  });

  it('takes events pruned by retention out', async () => {
    const { org, project } = await setup();
    const drafts = await mixed(project);
    await write(org, drafts.slice(0, 50));
    await rollUp(org, project, 'v');
    await write(org, drafts.slice(50));
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/projects/${project}`,
      body: { retentionDays: 1 },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(patched.status, 200);
    const pruner = new RetentionPruner(t.services.sql, { intervalSeconds: 1, timeZone: t.services.config.timeZone, log: t.services.log });
    await pruner.runOnce();
    const served = await assertSameAsScan(org, project, 'v');
    assert.deepEqual(
      Object.values(served)
        .flat()
        .map((point) => point.day)
        .filter((day, i, all) => all.indexOf(day) === i),
      [await today(0)],
    );
  });

  it("drops the project's counts and keys when the project is purged", async () => {
    const { org, project } = await setup();
    await write(org, await mixed(project));
    await rollUp(org, project, 'v');
    assert.equal((await org.post(`/api/projects/${project}/delete`)).status, 200);
    await t.services.purger.purge(org.id, project);
    const [left] = await t.services.sql<{ counts: number; keys: number }[]>`
      SELECT (SELECT count(*) FROM tag_daily_counts WHERE organization_id = ${org.id})::int AS counts,
             (SELECT count(*) FROM tag_rollup_keys WHERE organization_id = ${org.id})::int AS keys`;
    assert.deepEqual(left, { counts: 0, keys: 0 });
  });

  it('serves an imported project once its key is backfilled', async () => {
    const org = await t.org();
    const seconds = await noon(1);
    const events = MIXED_TAGS.map((tags, i) => ({ category: 'c', title: 't', created_at: seconds + i, ...(tags ? { tags: JSON.parse(tags) as object } : {}) }));
    const reply = await org.post('/api/import', { version: 1, projects: [{ id: 'p', name: 'Imported', events }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const project = reply.body.idMap.p as string;
    await rollUp(org, project, 'v');
    assert.equal((await assertSameAsScan(org, project, 'v'))['3']![0]!.count, 3);
  });

  it('counts each event once when it is deleted or arrives halfway through the backfill', async () => {
    const { org, project } = await setup();
    const old = await write(org, await mixed(project));
    const q = { organizationId: org.id, projectId: project, tagKey: 'v' };
    await withTransaction(t.services.sql, (tx) => registerTagKey(tx, q));
    const state = await keyState(org, project, 'v');
    assert.equal(state?.countedAfterId, old.at(-1));
    // Half the ids backfilled, by hand, so nothing else moves it on.
    const half = old[50]!;
    await withTransaction(t.services.sql, async (tx) => {
      await lockTagKey(tx, q);
      await backfillTagRange(tx, { ...q, after: 0, upTo: half, timeZone: t.services.config.timeZone });
    });
    const fresh = await write(org, await mixed(project));
    // Deleted: backfilled ones, ones the backfill has yet to read, ones ingest counted.
    for (const id of [old[3]!, old[50]!, old[51]!, old[90]!, fresh[0]!, fresh[70]!]) {
      assert.equal((await org.post(`/api/events/${id}/delete`)).status, 200);
    }
    assert.deepEqual(await chart(org, project, 'groupBy=tag:v'), await scanned(org, project, 'v'), 'read from the events meanwhile');
    await t.services.tagRollups.backfill(org.id, project, 'v');
    await assertSameAsScan(org, project, 'v');
  });

  it('stays exact when events arrive and are deleted while the backfill runs', async () => {
    const { org, project } = await setup();
    const before: number[] = [];
    for (let i = 0; i < 6; i++) before.push(...(await write(org, await mixed(project))));
    const backfiller = new TagRollupBackfiller(t.services.sql, t.services.log, t.services.config.timeZone, 13);
    const arrivals = (async () => {
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push(...(await write(org, [await draft(project, i % 3, 'c', MIXED_TAGS[i]!), await draft(project, 0, 'd', '{"v":"late"}')])));
      }
      return ids;
    })();
    // The key is registered while batches are being written (the chart request), then backfilled
    // in steps of 13 ids while more batches arrive and older events are deleted.
    await chart(org, project, 'groupBy=tag:v');
    const deletes = (async () => {
      for (const id of before.filter((_, i) => i % 17 === 0)) assert.equal((await org.post(`/api/events/${id}/delete`)).status, 200);
    })();
    await Promise.all([backfiller.backfill(org.id, project, 'v'), t.services.tagRollups.backfill(org.id, project, 'v'), arrivals, deletes]);
    const arrived = await arrivals;
    for (const id of arrived.slice(0, 5)) assert.equal((await org.post(`/api/events/${id}/delete`)).status, 200);
    await backfiller.backfill(org.id, project, 'v');
    const state = await keyState(org, project, 'v');
    assert.ok(state && state.backfilledUpTo === state.countedAfterId && state.countedAfterId > 0);
    await assertSameAsScan(org, project, 'v');
  });

  it('writes no per-value counts for an organization that rolls up no key, and counts every batch once it does', async () => {
    const { org, project } = await setup();
    const post = async () => assert.equal((await org.post('/api/events', { project, category: 'c', title: 't', tags: { plan: 'pro' } })).status, 201);
    const counted = async () => {
      const [row] = await t.services.sql<{ events: number; rows: number }[]>`
        SELECT coalesce(sum(count), 0)::int AS events, count(*)::int AS rows FROM tag_daily_counts WHERE organization_id = ${org.id}`;
      return row!;
    };
    await post();
    assert.deepEqual(await counted(), { events: 0, rows: 0 });
    await rollUp(org, project, 'plan');
    assert.deepEqual(await counted(), { events: 1, rows: 1 }, 'the backfill counts the event written before the key');
    await post();
    assert.deepEqual(await counted(), { events: 2, rows: 1 });
    assert.deepEqual(await chart(org, project, 'groupBy=tag:plan'), { pro: [{ day: await today(0), count: 2 }] });
  });

  it("reads the events, and registers the key later, while an import holds the organization's event counter", async () => {
    const { org, project } = await setup();
    await write(org, [await draft(project, 0, 'c', '{"plan":"pro"}')]);
    // Released after 10 s whatever happens, so that a registration that waits on fails the test instead of hanging it.
    const held = await holdEventCounter(t.services.sql, org.id);
    try {
      assert.deepEqual(await chart(org, project, 'groupBy=tag:plan'), { pro: [{ day: await today(0), count: 1 }] });
      assert.equal(await keyState(org, project, 'plan'), undefined);
    } finally {
      await held.release();
    }
    await rollUp(org, project, 'plan');
    await assertSameAsScan(org, project, 'plan');
  });

  it('reads the events for keys it does not roll up: too long, or past the per-project limit', async () => {
    const { org, project } = await setup();
    await write(org, [await draft(project, 0, 'c', '{"a":1}')]);
    const long = 'k'.repeat(MAX_ROLLED_UP_KEY_LENGTH + 1);
    assert.deepEqual(await chart(org, project, `groupBy=tag:${long}`), { '(none)': [{ day: await today(0), count: 1 }] });
    assert.equal(await keyState(org, project, long), undefined);
    for (let i = 0; i < MAX_ROLLED_UP_KEYS; i++) await chart(org, project, `groupBy=tag:k${i}`);
    assert.deepEqual(await chart(org, project, 'groupBy=tag:a'), { '1': [{ day: await today(0), count: 1 }] });
    assert.equal(await keyState(org, project, 'a'), undefined);
    assert.ok(await keyState(org, project, `k${MAX_ROLLED_UP_KEYS - 1}`));
  });
});

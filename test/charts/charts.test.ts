import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Sql, createClient } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { syncChartTimeZone } from '../../src/features/charts/syncChartTimeZone.ts';
import { insertEvents } from '../../src/features/events/queries.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';
import { sleep } from '../wait.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

/** Noon of the day `daysAgo` days before today, in the database session's zone (the server's). */
async function dayAgo(daysAgo: number): Promise<{ day: string; seconds: number }> {
  const [row] = await t.services.sql<{ day: string; seconds: number }[]>`
    SELECT (current_date - ${daysAgo}::int)::text AS day,
           extract(epoch FROM ((current_date - ${daysAgo}::int) + time '12:00')::timestamptz)::float8 AS seconds`;
  return row!;
}

async function seed(org: TestOrg, project: string, daysAgo: number, category: string, n = 1): Promise<number[]> {
  const { seconds } = await dayAgo(daysAgo);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const reply = await org.post('/api/events', { project, category, title: `${category} ${daysAgo} ${i}`, created_at: seconds + i });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    ids.push(reply.body.id);
  }
  return ids;
}

describe('GET /api/charts', () => {
  it('counts events per category and day over the last 30 days by default, oldest first', async () => {
    const { org, project } = await setup();
    await seed(org, project, 0, 'signups', 3);
    await seed(org, project, 1, 'signups', 2);
    await seed(org, project, 29, 'signups', 1);
    await seed(org, project, 30, 'signups', 4);
    await seed(org, project, 5, 'payments', 2);
    const reply = await org.get(`/api/charts?project=${project}`);
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const [d0, d1, d5, d29] = await Promise.all([dayAgo(0), dayAgo(1), dayAgo(5), dayAgo(29)]);
    assert.deepEqual(reply.body, {
      payments: [{ day: d5.day, count: 2 }],
      signups: [
        { day: d29.day, count: 1 },
        { day: d1.day, count: 2 },
        { day: d0.day, count: 3 },
      ],
    });
  });

  it('takes the window from days, today included', async () => {
    const { org, project } = await setup();
    await seed(org, project, 0, 'c');
    await seed(org, project, 1, 'c');
    await seed(org, project, 30, 'c');
    // Events cannot predate 1970, so the far end of the window is checked on rollup rows.
    for (const daysAgo of [36499, 36500]) {
      await t.services.sql`
        INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
        VALUES (${org.id}, ${project}, current_date - ${daysAgo}::int, 'c', 1)`;
    }
    const days = async (q: string) => {
      const reply = await org.get(`/api/charts?project=${project}${q}`);
      assert.equal(reply.status, 200, q);
      return (reply.body.c ?? []).length;
    };
    assert.equal(await days('&days=1'), 1);
    assert.equal(await days('&days=2'), 2);
    assert.equal(await days('&days=30'), 2);
    assert.equal(await days('&days=31'), 3);
    assert.equal(await days('&days=36500'), 4);
    assert.equal(await days('&days=036500'), 4);
  });

  it('leaves out categories without events in the window and days whose events were deleted', async () => {
    const { org, project } = await setup();
    await seed(org, project, 40, 'old');
    const [gone] = await seed(org, project, 2, 'deleted');
    await seed(org, project, 3, 'kept', 1);
    const [alsoGone] = await seed(org, project, 4, 'kept', 1);
    assert.equal((await org.post(`/api/events/${gone}/delete`)).status, 200);
    assert.equal((await org.post(`/api/events/${alsoGone}/delete`)).status, 200);
    const reply = await org.get(`/api/charts?project=${project}`);
    assert.deepEqual(reply.body, { kept: [{ day: (await dayAgo(3)).day, count: 1 }] });
  });

  it('leaves out events dated after today', async () => {
    const { org, project } = await setup();
    await seed(org, project, -1, 'future');
    await seed(org, project, 0, 'today');
    assert.deepEqual(Object.keys((await org.get(`/api/charts?project=${project}`)).body), ['today']);
  });

  it('restricts to one category', async () => {
    const { org, project } = await setup();
    await seed(org, project, 0, 'a', 2);
    await seed(org, project, 0, 'b', 1);
    const reply = await org.get(`/api/charts?project=${project}&category=b`);
    assert.deepEqual(reply.body, { b: [{ day: (await dayAgo(0)).day, count: 1 }] });
    assert.deepEqual((await org.get(`/api/charts?project=${project}&category=none`)).body, {});
    // An empty category means no filter, as in the feed.
    assert.deepEqual(Object.keys((await org.get(`/api/charts?project=${project}&category=`)).body).sort(), ['a', 'b']);
  });

  it('keeps category names that are also object property names as ordinary keys', async () => {
    const { org, project } = await setup();
    await seed(org, project, 0, '__proto__', 2);
    await seed(org, project, 0, 'constructor', 1);
    const reply = await org.get(`/api/charts?project=${project}`);
    assert.equal(reply.status, 200);
    const body = JSON.parse(reply.raw.body);
    assert.deepEqual(Object.keys(body), ['__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(body, '__proto__')?.value[0].count, 2);
  });

  it('escapes category names as JSON and orders them as JavaScript compares strings', async () => {
    const { org, project } = await setup();
    // Quotes, a backslash, a control character, U+2028, an astral character and one above the
    // surrogates (code unit order puts the astral one first, code point order last).
    const names = ['say "hi"', 'back\\slash', 'tab\there', 'line\u2028sep', '\u{1F600} smile', '\uFF21 wide', 'Zed', 'zed'];
    for (const name of names) await seed(org, project, 1, name, 1);
    const reply = await org.get(`/api/charts?project=${project}`);
    assert.equal(reply.status, 200);
    const body = JSON.parse(reply.raw.body) as Record<string, Array<{ day: string; count: number }>>;
    assert.deepEqual(Object.keys(body), [...names].sort());
    const { day } = await dayAgo(1);
    for (const name of names) assert.deepEqual(body[name], [{ day, count: 1 }], name);
  });

  it('reads the per-day rollup, not the events', async () => {
    const { org, project } = await setup();
    const { day } = await dayAgo(3);
    await t.services.sql`
      INSERT INTO event_daily_counts (organization_id, project_id, day, category, count) VALUES (${org.id}, ${project}, ${day}::date, 'rollup', 7)`;
    assert.deepEqual((await org.get(`/api/charts?project=${project}`)).body, { rollup: [{ day, count: 7 }] });
  });

  it('answers an empty object for a project without events', async () => {
    const { org, project } = await setup();
    const reply = await org.get(`/api/charts?project=${project}`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {});
  });

  for (const days of ['0', '36501', '-1', '1.5', '', 'abc', '1e3', ' 5', '5 ', '+5', '0x10', '99999999999999999999', 'Infinity', 'NaN']) {
    it(`refuses days=${JSON.stringify(days)} with 400`, async () => {
      const { org, project } = await setup();
      const reply = await org.get(`/api/charts?project=${project}&days=${encodeURIComponent(days)}`);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
    });
  }

  it('refuses repeated parameters with 400', async () => {
    const { org, project } = await setup();
    assert.equal((await org.get(`/api/charts?project=${project}&days=1&days=2`)).status, 400);
    assert.equal((await org.get(`/api/charts?project=${project}&project=${project}`)).status, 400);
    assert.equal((await org.get(`/api/charts?project=${project}&category=a&category=b`)).status, 400);
  });

  it('answers 400 without a project and 404 for another organization one', async () => {
    const { org, project } = await setup();
    await seed(org, project, 0, 'secret');
    const other = await t.org();
    for (const url of ['/api/charts', '/api/charts?project=', '/api/charts?days=5']) {
      const reply = await other.get(url);
      assert.equal(reply.status, 400, url);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    for (const url of [`/api/charts?project=${project}`, '/api/charts?project=nosuchproject']) {
      const reply = await other.get(url);
      assert.equal(reply.status, 404, url);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.equal((await t.request({ method: 'GET', url: `/api/charts?project=${project}` })).status, 401);
  });
});

/**
 * The day-bucket time zone step works on the whole installation, so it gets a database of its
 * own: the shared test database must keep the zone the other test files run in.
 */
describe('chart time zone at startup', () => {
  const state = {} as { own: OwnDatabase; url: string; clients: Sql[] };

  before(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('Run the tests with `npm test`: it provides DATABASE_URL');
    state.own = await createOwnDatabase(url, { prefix: 'eventlog_tz' });
    state.url = state.own.url;
    state.clients = [];
  });

  after(async () => {
    for (const client of state.clients) await client.end({ timeout: 5 });
    await state.own?.drop();
  });

  const connect = (timeZone: string) => {
    const client = createClient(state.url, { timeZone, max: 4 });
    state.clients.push(client);
    return client;
  };

  const buckets = async (sql: Sql, projectId: string) => [
    ...(await sql<{ day: string; category: string; count: number }[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, category, count FROM event_daily_counts
      WHERE project_id = ${projectId} AND count > 0 ORDER BY day, category`),
  ];

  const recorded = async (sql: Sql) => (await sql<{ value: string }[]>`SELECT value FROM settings WHERE key = 'chart_time_zone'`)[0]?.value;

  async function project(sql: Sql): Promise<{ organizationId: string; projectId: string }> {
    const suffix = crypto.randomBytes(4).toString('hex');
    const organizationId = `org${suffix}`;
    const projectId = `prj${suffix}abcde`.slice(0, 12);
    await sql`INSERT INTO organizations (id, name) VALUES (${organizationId}, 'tz')`;
    await sql`INSERT INTO projects (id, organization_id, name) VALUES (${projectId}, ${organizationId}, 'tz')`;
    return { organizationId, projectId };
  }

  const draft = (projectId: string, category: string, iso: string) =>
    validateEventInput({ project: projectId, category, title: 't', created_at: Date.parse(iso) / 1000 });

  it('records the zone on a fresh installation, then moves the buckets when the zone changes', async () => {
    const utc = connect('UTC');
    await migrate(utc);
    assert.equal(await syncChartTimeZone(utc, 'UTC'), false);
    assert.equal(await recorded(utc), 'UTC');

    const { organizationId, projectId } = await project(utc);
    // 20:00 UTC on 10 March is 09:00 on 11 March in Auckland (UTC+13 then); 05:00 UTC is 18:00 on the 10th.
    await insertEvents(
      utc,
      organizationId,
      [draft(projectId, 'late', '2024-03-10T20:00:00Z'), draft(projectId, 'early', '2024-03-10T05:00:00Z'), draft(projectId, 'late', '2024-03-10T21:00:00Z')],
      { timeZone: 'UTC' },
    );
    assert.deepEqual(await buckets(utc, projectId), [
      { day: '2024-03-10', category: 'early', count: 1 },
      { day: '2024-03-10', category: 'late', count: 2 },
    ]);

    const messages: string[] = [];
    // One event id per step: each range adds to the buckets the earlier ones wrote.
    assert.equal(await syncChartTimeZone(utc, 'Pacific/Auckland', (m) => messages.push(m), 1), true);
    assert.equal(await recorded(utc), 'Pacific/Auckland');
    assert.deepEqual(await buckets(utc, projectId), [
      { day: '2024-03-10', category: 'early', count: 1 },
      { day: '2024-03-11', category: 'late', count: 2 },
    ]);
    assert.ok(
      messages.some((m) => /recount/.test(m) && m.includes('Pacific/Auckland')),
      messages.join('\n'),
    );

    // Same zone again: nothing to do. New writes from an Auckland session land in the same buckets.
    const auckland = connect('Pacific/Auckland');
    assert.equal(await syncChartTimeZone(auckland, 'Pacific/Auckland'), false);
    await insertEvents(auckland, organizationId, [draft(projectId, 'late', '2024-03-10T22:00:00Z')], { timeZone: 'Pacific/Auckland' });
    assert.deepEqual(
      (await buckets(auckland, projectId)).find((b) => b.category === 'late'),
      { day: '2024-03-11', category: 'late', count: 3 },
    );
  });

  it('rebuilds when no zone is recorded but events exist, and drops emptied buckets', async () => {
    const sql = connect('UTC');
    await migrate(sql);
    const { organizationId, projectId } = await project(sql);
    await insertEvents(sql, organizationId, [draft(projectId, 'c', '2024-01-01T12:00:00Z')], { timeZone: 'UTC' });
    await sql`
      INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
      VALUES (${organizationId}, ${projectId}, '2020-01-01', 'gone', 0)`;
    await sql`DELETE FROM settings WHERE key = 'chart_time_zone'`;
    assert.equal(await syncChartTimeZone(sql, 'UTC'), true);
    const all = await sql<{ day: string; category: string; count: number }[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, category, count FROM event_daily_counts WHERE project_id = ${projectId}`;
    assert.deepEqual([...all], [{ day: '2024-01-01', category: 'c', count: 1 }]);
    assert.equal(await recorded(sql), 'UTC');
  });

  it('rebuilds once when several processes start together, and counts a write in flight exactly once', async () => {
    const writer = connect('Europe/Berlin');
    await migrate(writer);
    await syncChartTimeZone(writer, 'UTC');
    const { organizationId, projectId } = await project(writer);
    await insertEvents(
      writer,
      organizationId,
      Array.from({ length: 50 }, (_, i) => draft(projectId, `c${i % 3}`, `2024-06-0${1 + (i % 5)}T23:30:00Z`)),
      { timeZone: 'Europe/Berlin' },
    );

    // A transaction that has written an event but not yet committed while the processes start.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const inFlight = writer.begin(async (tx) => {
      await insertEvents(tx, organizationId, [draft(projectId, 'c0', '2024-06-01T23:30:00Z')], { timeZone: 'Europe/Berlin' });
      wrote();
      await held;
    });
    await written;
    const starts = [connect('Europe/Berlin'), connect('Europe/Berlin'), connect('Europe/Berlin')].map((sql) => syncChartTimeZone(sql, 'Europe/Berlin'));
    // The three starts queue behind the held transaction; nothing here shows when they do.
    await sleep(200);
    release();
    await inFlight;
    const results = await Promise.all(starts);
    assert.deepEqual(results.filter(Boolean).length, 1, `rebuilt ${JSON.stringify(results)}`);

    const expected = await writer<{ day: string; category: string; count: number }[]>`
      SELECT to_char((created_at AT TIME ZONE 'Europe/Berlin')::date, 'YYYY-MM-DD') AS day, category, count(*)::int AS count
      FROM events WHERE project_id = ${projectId} GROUP BY 1, 2 ORDER BY 1, 2`;
    assert.deepEqual(await buckets(writer, projectId), [...expected]);
    assert.equal(
      expected.reduce((sum, b) => sum + b.count, 0),
      51,
    );
    // 23:30 UTC is already the next day in Berlin.
    assert.equal(expected[0]!.day, '2024-06-02');
  });
});

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { describe, it } from 'node:test';
import type { Announcement } from '../../src/db/bus.ts';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

const t = useTestApp();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents under test are arbitrary JSON
type Json = any;

async function exported(org: TestOrg): Promise<Json> {
  const reply = await org.get('/api/export');
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  return JSON.parse(reply.raw.body);
}

const importDoc = (org: TestOrg, doc: unknown): Promise<Reply> => org.post('/api/import', doc);

async function projectCount(org: TestOrg): Promise<number> {
  return (await org.get('/api/projects')).body.length;
}

async function eventCount(org: TestOrg): Promise<number> {
  const [row] = await t.services.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM events WHERE organization_id = ${org.id}`;
  return row!.n;
}

function event(i: number, extra: Record<string, unknown> = {}) {
  return { category: `cat${i % 3}`, title: `event ${i}`, created_at: 1700000000 + i, ...extra };
}

/** Every announcement of this type for the organization from now on, until `stop`. */
function collect(type: string, organizationId: string): { heard: Announcement[]; stop: () => void } {
  const heard: Announcement[] = [];
  const stop = t.services.bus.subscribe((a) => {
    if (a.type === type && a.organizationId === organizationId) heard.push(a);
  });
  return { heard, stop };
}

describe('GET /api/export', () => {
  it('answers an empty document for an organization without projects', async () => {
    const org = await t.org();
    assert.deepEqual(await exported(org), { version: 1, projects: [] });
  });

  it('exports every project of the organization with categories, events and insights', async () => {
    const org = await t.org();
    const first = await org.project('First');
    const second = await org.project('Second');
    const other = await t.org();
    await other.project('Not mine');

    const full = await org.post('/api/events', {
      project: first,
      category: 'payments',
      title: 'Paid',
      description: 'Plan **pro**',
      icon: '💰',
      tags: { z: 'last', a: 1 },
      metadata: [{ nested: { deep: [1, null] } }],
      url: 'https://example.com/p',
      user_id: 'u-1',
      notify: true,
      created_at: 1700000000.9,
    });
    assert.equal(full.status, 201);
    await org.post(`/api/events/${full.body.id}/favorite`);
    await org.post('/api/events', { project: first, category: 'signups', title: 'Older', created_at: 1600000000 });
    await org.post('/api/insight', { project: first, title: 'MRR', value: 1200, icon: '📈' });
    await org.post('/api/insight', { project: first, title: 'Plain', value: '' });

    const doc = await exported(org);
    // Key order of tags is the client's own.
    assert.deepEqual(Object.keys(doc.projects[0].events[1].tags), ['z', 'a']);
    assert.deepEqual(doc, {
      version: 1,
      projects: [
        {
          id: first,
          name: 'First',
          categories: ['payments', 'signups'],
          events: [
            {
              category: 'signups',
              title: 'Older',
              description: null,
              icon: null,
              tags: null,
              metadata: null,
              url: null,
              user_id: null,
              notify: false,
              favorited: false,
              created_at: 1600000000,
            },
            {
              category: 'payments',
              title: 'Paid',
              description: 'Plan **pro**',
              icon: '💰',
              tags: { z: 'last', a: 1 },
              metadata: [{ nested: { deep: [1, null] } }],
              url: 'https://example.com/p',
              user_id: 'u-1',
              notify: true,
              favorited: true,
              created_at: 1700000000,
            },
          ],
          insights: [
            { title: 'MRR', value: '1200', icon: '📈' },
            { title: 'Plain', value: '', icon: null },
          ],
          alerts: [],
          groups: [],
        },
        { id: second, name: 'Second', categories: [], events: [], insights: [], alerts: [], groups: [] },
      ],
    });
  });

  it('streams large projects in order, oldest event first, ties by id', async () => {
    const org = await t.org();
    const events = Array.from({ length: 2500 }, (_, i) => event(i, { created_at: 1700000000 + Math.floor(i / 2) }));
    const reply = await importDoc(org, { version: 1, projects: [{ name: 'Big', events }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const doc = await exported(org);
    assert.equal(doc.projects[0].events.length, 2500);
    assert.deepEqual(
      doc.projects[0].events.map((e: { title: string }) => e.title),
      events.map((e) => e.title),
    );
  });

  it('gives its connection back when the client goes away mid-stream', async () => {
    const org = await t.org();
    const events = Array.from({ length: 20_000 }, (_, i) => event(i, { description: 'x'.repeat(200) }));
    assert.equal((await importDoc(org, { projects: [{ name: 'Big', events }] })).status, 200);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // More abandoned exports than the pool has connections: a leak would hang the last request.
    for (let i = 0; i < 12; i++) {
      const head = await new Promise<{ status: number; type: string; start: string }>((resolve, reject) => {
        const request = http.get(`${address}/api/export`, { agent: false, headers: { authorization: `Bearer ${org.key}` } }, (response) => {
          response.once('data', (chunk: Buffer) => {
            resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), start: chunk.toString('utf8', 0, 30) });
            request.destroy();
          });
        });
        request.on('error', reject);
      });
      assert.equal(head.status, 200);
      assert.match(head.type, /^application\/json/);
      assert.match(head.start, /^\{"version":1,"projects":\[/);
    }
    const whole = await org.get('/api/export');
    assert.equal(whole.status, 200);
    assert.equal(JSON.parse(whole.raw.body).projects[0].events.length, 20_000);
    assert.equal((await org.get('/api/projects')).status, 200);
  });

  it('needs an API key', async () => {
    const reply = await t.request({ method: 'GET', url: '/api/export' });
    assert.equal(reply.status, 401);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });
});

describe('POST /api/import', () => {
  it('round-trips an export into fresh projects', async () => {
    const org = await t.org();
    const project = await org.project('Source');
    await org.post('/api/events', { project, category: 'a', title: 'one', tags: { k: 'v' }, metadata: { m: [1] }, created_at: 1650000000 });
    const favorite = await org.post('/api/events', { project, category: 'b', title: 'two', notify: true, created_at: 1650000001 });
    await org.post(`/api/events/${favorite.body.id}/favorite`);
    await org.post('/api/insight', { project, title: 'Users', value: 3, icon: '👤' });
    const source = await exported(org);

    const target = await t.org();
    const reply = await importDoc(target, source);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const newId = reply.body.idMap[project];
    assert.match(newId, /^[a-z0-9]{12}$/);
    assert.notEqual(newId, project);
    assert.deepEqual(reply.body, { imported: { projects: 1, events: 2, insights: 1 }, idMap: { [project]: newId } });
    const copy = await exported(target);
    assert.deepEqual(copy, { version: 1, projects: [{ ...source.projects[0], id: newId }] });
    // The import never fans out: notify events arrive as history.
    const [outbox] = await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM notify_outbox WHERE project_id = ${newId}`;
    assert.equal(outbox!.n, 0);
    // Charts and category counts see the imported events.
    const categories = await target.get(`/api/categories?project=${newId}`);
    assert.deepEqual(categories.body, [
      { name: 'a', count: 1 },
      { name: 'b', count: 1 },
    ]);
  });

  it('keeps every character of text and tags, fractional seconds, and stamps events without created_at with the transaction time', async () => {
    const org = await t.org();
    const tricky = 'tab\there\nline two\r\nbackslash \\ \\N \\. end\n\\.\nemoji 🎉 "quoted" \u001f';
    const rows = [
      {
        category: 'c\t1',
        title: tricky,
        description: tricky,
        icon: '🎉',
        tags: { 'k\\ey': 'v\\al "q"', n: 1.5 },
        metadata: { text: tricky },
        url: 'https://example.com/a\\b',
        user_id: 'u\\1',
        created_at: 1650000000.123456,
      },
      { category: 'plain', title: 'no time', notify: true },
    ];
    const before = Date.now();
    const reply = await importDoc(org, { version: 1, projects: [{ id: 'p', name: 'Tricky', events: rows }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const projectId = reply.body.idMap.p;
    const stored = await t.services.sql<Json[]>`
      SELECT category, title, description, icon, tags::text AS tags, metadata::text AS metadata, url, user_id, notify,
             (extract(epoch FROM created_at) * 1000000)::int8::text AS micros
      FROM events WHERE organization_id = ${org.id} AND project_id = ${projectId} ORDER BY id`;
    assert.deepEqual(stored[0], {
      category: 'c\t1',
      title: tricky,
      description: tricky,
      icon: '🎉',
      tags: JSON.stringify(rows[0]!.tags),
      metadata: JSON.stringify({ text: tricky }),
      url: 'https://example.com/a\\b',
      user_id: 'u\\1',
      notify: false,
      micros: '1650000000123456',
    });
    const stamped = Number(stored[1].micros) / 1000;
    assert.ok(stamped >= before - 1000 && stamped <= Date.now() + 1000, `created_at ${stamped} is the import's time`);
    assert.equal(stored[1].notify, true);
  });

  it('answers 500 {error} and writes nothing when PostgreSQL refuses the rows, instead of waiting forever', async () => {
    const org = await t.org();
    const project = await org.project('Existing');
    await org.post('/api/events', { project, category: 'a', title: 'one' });
    // Ids handed out again: the import's first row collides with the event above.
    await t.services.sql`UPDATE id_counters SET last_id = 0 WHERE organization_id = ${org.id} AND kind = 'event'`;
    const reply = await importDoc(org, { version: 1, projects: [{ name: 'Clash', events: [event(1), event(2)] }] });
    assert.equal(reply.status, 500);
    assert.equal(typeof reply.body.error, 'string');
    assert.equal(await projectCount(org), 1);
    assert.equal(await eventCount(org), 1);
  });

  it('creates independent projects each time the same file is loaded', async () => {
    const org = await t.org();
    const doc = { version: 1, projects: [{ id: 'label-a', name: 'A', events: [event(1)], insights: [{ title: 'x', value: 1 }] }] };
    const first = await importDoc(org, doc);
    const second = await importDoc(org, doc);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.notEqual(first.body.idMap['label-a'], second.body.idMap['label-a']);
    assert.equal(await projectCount(org), 2);
    await org.post('/api/insight', { project: first.body.idMap['label-a'], title: 'x', value: 2 });
    const insights = await org.get(`/api/insights?project=${second.body.idMap['label-a']}`);
    assert.equal(insights.body[0].value, '1');
  });

  it('labels projects without an id by their index, and accepts a missing version', async () => {
    const org = await t.org();
    const reply = await importDoc(org, { projects: [{ name: 'No id' }, { id: 'given', name: 'Given' }, { id: null, name: 'Null id' }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(Object.keys(reply.body.idMap).sort(), ['0', '2', 'given']);
    assert.deepEqual(reply.body.imported, { projects: 3, events: 0, insights: 0 });
    const names = (await org.get('/api/projects')).body.map((p: { id: string; name: string }) => [p.id, p.name]);
    assert.deepEqual(
      new Map(names),
      new Map([
        [reply.body.idMap['0'], 'No id'],
        [reply.body.idMap.given, 'Given'],
        [reply.body.idMap['2'], 'Null id'],
      ]),
    );
  });

  it('imports an empty list of projects as nothing', async () => {
    const org = await t.org();
    const reply = await importDoc(org, { version: 1, projects: [] });
    assert.deepEqual(reply.body, { imported: { projects: 0, events: 0, insights: 0 }, idMap: {} });
  });

  it('keeps categories without events, trims project names and lets the last of duplicate insight titles win', async () => {
    const org = await t.org();
    const reply = await importDoc(org, {
      version: 1,
      projects: [
        {
          id: 'p',
          name: '  Spaced  ',
          categories: ['empty', 'used', 'empty'],
          events: [{ category: 'used', title: 't', created_at: 1700000000 }],
          insights: [
            { title: 'dup', value: 1, icon: '🅰️' },
            { title: 'other', value: 'x' },
            { title: 'dup', value: 2 },
            { title: 'dup', value: 0 },
          ],
        },
      ],
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.imported, { projects: 1, events: 1, insights: 2 });
    const id = reply.body.idMap.p;
    const doc = await exported(org);
    assert.equal(doc.projects[0].name, 'Spaced');
    assert.deepEqual(doc.projects[0].categories, ['empty', 'used']);
    // As if posted in order: the last value, and the icon of the last row that gave one.
    assert.deepEqual(doc.projects[0].insights, [
      { title: 'dup', value: '0', icon: '🅰️' },
      { title: 'other', value: 'x', icon: null },
    ]);
    assert.deepEqual((await org.get(`/api/categories?project=${id}`)).body, [
      { name: 'empty', count: 0 },
      { name: 'used', count: 1 },
    ]);
  });

  it('restores favorited across insert chunks and defaults notify, favorited and created_at', async () => {
    const org = await t.org();
    const favorites = new Set([0, 999, 1000, 1001, 2499]);
    const events = Array.from({ length: 2500 }, (_, i) => event(i, { favorited: favorites.has(i) }));
    events.push({ category: 'plain', title: 'defaults' } as ReturnType<typeof event>);
    const before = Math.floor(Date.now() / 1000);
    const reply = await importDoc(org, { version: 1, projects: [{ name: 'Chunks', events }] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.imported.events, 2501);
    const doc = await exported(org);
    const out = doc.projects[0].events as Array<{ title: string; favorited: boolean; notify: boolean; created_at: number }>;
    assert.deepEqual(
      out.filter((e) => e.favorited).map((e) => e.title),
      [...favorites].map((i) => `event ${i}`),
    );
    const defaults = out.find((e) => e.title === 'defaults')!;
    assert.equal(defaults.notify, false);
    assert.equal(defaults.favorited, false);
    assert.ok(defaults.created_at >= before - 2 && defaults.created_at <= Date.now() / 1000 + 2);
  });

  it('announces import.completed for each imported project after the commit', async () => {
    const org = await t.org();
    const { heard, stop } = collect('import.completed', org.id);
    const reply = await importDoc(org, {
      projects: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
    });
    const announcements = await waitUntil(() => heard.length >= 2 && heard, { message: 'an import.completed per project' }).finally(stop);
    assert.deepEqual(announcements.map((a) => a.projectId).sort(), [reply.body.idMap.a, reply.body.idMap.b].sort());
  });

  it('imports 100,000 events in one request within a few seconds', async (ctx) => {
    const org = await t.org();
    const events = Array.from({ length: 100_000 }, (_, i) =>
      event(i, { tags: { plan: i % 2 ? 'pro' : 'free', n: i }, metadata: { request: { id: i } }, description: `description ${i}`, notify: i % 10 === 0 }),
    );
    const payload = JSON.stringify({ version: 1, projects: [{ id: 'big', name: 'Big', categories: ['cat0'], events }] });
    const started = performance.now();
    const reply = await t.request({
      method: 'POST',
      url: '/api/import',
      payload,
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    const importMs = performance.now() - started;
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.imported, { projects: 1, events: 100_000, insights: 0 });
    const id = reply.body.idMap.big;
    const counts = await org.get(`/api/categories?project=${id}`);
    assert.deepEqual(counts.body, [
      { name: 'cat0', count: 33334 },
      { name: 'cat1', count: 33333 },
      { name: 'cat2', count: 33333 },
    ]);

    const exportStarted = performance.now();
    const out = await org.get('/api/export');
    const exportMs = performance.now() - exportStarted;
    assert.equal(out.status, 200);
    const doc = JSON.parse(out.raw.body);
    assert.equal(doc.projects[0].events.length, 100_000);
    assert.deepEqual(doc.projects[0].events[99_999].tags, { plan: 'pro', n: 99_999 });
    ctx.diagnostic(`import of 100,000 events (${(payload.length / 1e6).toFixed(1)} MB): ${Math.round(importMs)} ms; export: ${Math.round(exportMs)} ms`);
    // A few seconds on a quiet 2-core machine; the bound leaves room for a busy CI runner. On Citus
    // every COPY row passes through the coordinator on its way to the worker: twice the room.
    const bound = process.env.EVENTLOG_TEST_STORE === 'citus' ? 40_000 : 20_000;
    assert.ok(importMs < bound, `import took ${Math.round(importMs)} ms`);
  });

  it('writes nothing when one row among 1,500 is invalid, and names the row', async () => {
    const org = await t.org();
    await org.project('Existing');
    const events = Array.from({ length: 1500 }, (_, i) => event(i));
    events[1234] = event(1234, { category: 'x'.repeat(101) });
    const reply = await importDoc(org, {
      version: 1,
      projects: [
        { name: 'Fine', events: [event(1)] },
        { name: 'Bad', events },
      ],
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, { error: 'projects[1].events[1234].category must be at most 100 characters' });
    assert.equal(await projectCount(org), 1);
    assert.equal(await eventCount(org), 0);
  });

  it('rolls everything back when a statement fails after earlier chunks were written', async () => {
    const org = await t.org();
    // Every row passes the checks; a constraint makes the database refuse one insight, which is
    // written after the projects, categories and 1,500 events. (A constraint, not a trigger:
    // Citus has no triggers on distributed tables.)
    const marker = `fail-${crypto.randomBytes(6).toString('hex')}`;
    const constraint = `refuse_${marker.replace('-', '_')}`;
    await t.services.sql.unsafe(`ALTER TABLE insights ADD CONSTRAINT ${constraint} CHECK (title <> '${marker}') NOT VALID`);
    try {
      const reply = await importDoc(org, {
        projects: [
          { name: 'First', categories: ['x'], events: Array.from({ length: 1500 }, (_, i) => event(i, { favorited: i === 1 })) },
          {
            name: 'Second',
            events: [event(1)],
            insights: [
              { title: 'fine', value: 1 },
              { title: marker, value: 2 },
            ],
          },
        ],
      });
      assert.equal(reply.status, 500);
      assert.deepEqual(reply.body, { error: 'Internal server error' });
    } finally {
      await t.services.sql.unsafe(`ALTER TABLE insights DROP CONSTRAINT ${constraint}`);
    }
    assert.equal(await projectCount(org), 0);
    assert.equal(await eventCount(org), 0);
  });

  const ok = { name: 'P' };
  const bad: Array<[string, unknown, RegExp]> = [
    ['a missing projects', { version: 1 }, /^projects is required$/],
    ['projects that is an object', { projects: { a: 1 } }, /^projects must be an array$/],
    ['projects that is null', { projects: null }, /^projects must be an array$/],
    ['projects that is a string', { projects: 'x' }, /^projects must be an array$/],
    ['an array body', [ok], /must be an object/],
    ['version 2', { version: 2, projects: [ok] }, /^version must be 1$/],
    ['version "1"', { version: '1', projects: [ok] }, /^version must be 1$/],
    ['version null', { version: null, projects: [ok] }, /^version must be 1$/],
    ['a project that is not an object', { projects: [ok, 5] }, /^projects\[1\] must be an object$/],
    ['a project without name', { projects: [ok, {}] }, /^projects\[1\]\.name is required$/],
    ['a blank project name', { projects: [{ name: '   ' }] }, /^projects\[0\]\.name is required$/],
    ['a numeric project name', { projects: [{ name: 5 }] }, /^projects\[0\]\.name must be a string$/],
    ['a project name of 201 characters', { projects: [{ name: '😀'.repeat(201) }] }, /^projects\[0\]\.name must be at most 200/],
    ['a numeric project id', { projects: [{ id: 5, name: 'P' }] }, /^projects\[0\]\.id must be a string or null$/],
    [
      'duplicate project ids',
      {
        projects: [
          { id: 'a', name: 'P' },
          { id: 'a', name: 'Q' },
        ],
      },
      /^projects\[1\]\.id "a"/,
    ],
    ['an id that clashes with an index label', { projects: [{ id: '1', name: 'P' }, { name: 'Q' }] }, /^projects\[1\]\.id "1"/],
    ['categories that is an object', { projects: [{ name: 'P', categories: {} }] }, /^projects\[0\]\.categories must be an array$/],
    ['a numeric category', { projects: [{ name: 'P', categories: ['a', 1] }] }, /^projects\[0\]\.categories\[1\] must be a string$/],
    ['an empty category', { projects: [{ name: 'P', categories: [''] }] }, /^projects\[0\]\.categories\[0\] must not be empty$/],
    [
      'a category of 101 characters',
      { projects: [{ name: 'P', categories: ['😀'.repeat(101)] }] },
      /^projects\[0\]\.categories\[0\] must be at most 100 characters$/,
    ],
    ['events that is null', { projects: [{ name: 'P', events: null }] }, /^projects\[0\]\.events must be an array$/],
    ['an event that is a string', { projects: [{ name: 'P', events: ['x'] }] }, /^projects\[0\]\.events\[0\] must be an object$/],
    ['an event without category', { projects: [{ name: 'P', events: [{ title: 't' }] }] }, /^projects\[0\]\.events\[0\]\.category is required$/],
    ['an event without title', { projects: [{ name: 'P', events: [event(0), { category: 'c' }] }] }, /^projects\[0\]\.events\[1\]\.title is required$/],
    ['an event with a blank title', { projects: [{ name: 'P', events: [event(0, { title: ' ' })] }] }, /^projects\[0\]\.events\[0\]\.title is required$/],
    [
      'an event with a blank category',
      { projects: [{ name: 'P', events: [event(0, { category: '' })] }] },
      /^projects\[0\]\.events\[0\]\.category is required$/,
    ],
    ['an event with a numeric title', { projects: [{ name: 'P', events: [event(0, { title: 1 })] }] }, /^projects\[0\]\.events\[0\]\.title must be a string$/],
    [
      'an event category of 101 characters',
      { projects: [{ name: 'P', events: [event(0, { category: '😀'.repeat(101) })] }] },
      /events\[0\]\.category must be at most 100/,
    ],
    ['an event icon of 17 characters', { projects: [{ name: 'P', events: [event(0, { icon: '🎉'.repeat(17) })] }] }, /events\[0\]\.icon must be at most 16/],
    ['a numeric event icon', { projects: [{ name: 'P', events: [event(0, { icon: 1 })] }] }, /events\[0\]\.icon must be a string or null$/],
    ['a numeric description', { projects: [{ name: 'P', events: [event(0, { description: 1 })] }] }, /events\[0\]\.description must be a string or null$/],
    ['a numeric url', { projects: [{ name: 'P', events: [event(0, { url: 1 })] }] }, /events\[0\]\.url must be a string or null$/],
    ['a numeric user_id', { projects: [{ name: 'P', events: [event(0, { user_id: 1 })] }] }, /events\[0\]\.user_id must be a string or null$/],
    ['array tags', { projects: [{ name: 'P', events: [event(0, { tags: ['a'] })] }] }, /events\[0\]\.tags must be an object or null$/],
    ['string tags', { projects: [{ name: 'P', events: [event(0, { tags: 'a=b' })] }] }, /events\[0\]\.tags must be an object or null$/],
    ['string metadata', { projects: [{ name: 'P', events: [event(0, { metadata: 'boom' })] }] }, /events\[0\]\.metadata must be an object, an array or null$/],
    ['numeric metadata', { projects: [{ name: 'P', events: [event(0, { metadata: 42 })] }] }, /events\[0\]\.metadata must be an object, an array or null$/],
    [
      'metadata over 65536 bytes',
      { projects: [{ name: 'P', events: [event(0, { metadata: { d: 'x'.repeat(65530) } })] }] },
      /events\[0\]\.metadata must be at most 65536 bytes/,
    ],
    ['a string notify', { projects: [{ name: 'P', events: [event(0, { notify: 'yes' })] }] }, /events\[0\]\.notify must be a boolean$/],
    ['a numeric favorited', { projects: [{ name: 'P', events: [event(0, { favorited: 1 })] }] }, /events\[0\]\.favorited must be a boolean$/],
    [
      'a string created_at',
      { projects: [{ name: 'P', events: [event(0, { created_at: '1700000000' })] }] },
      /events\[0\]\.created_at must be a number or null$/,
    ],
    ['a negative created_at', { projects: [{ name: 'P', events: [event(0, { created_at: -1 })] }] }, /events\[0\]\.created_at must be Unix seconds/],
    ['a huge created_at', { projects: [{ name: 'P', events: [event(0, { created_at: 1e20 })] }] }, /events\[0\]\.created_at must be Unix seconds/],
    ['NUL in an event title', { projects: [{ name: 'P', events: [event(0, { title: 'a\u0000' })] }] }, /events\[0\]\.title must not contain NUL/],
    ['NUL in tags', { projects: [{ name: 'P', events: [event(0, { tags: { a: '\u0000' } })] }] }, /events\[0\]\.tags must not contain NUL/],
    ['insights that is an object', { projects: [{ name: 'P', insights: {} }] }, /^projects\[0\]\.insights must be an array$/],
    ['an insight without value', { projects: [{ name: 'P', insights: [{ title: 't' }] }] }, /^projects\[0\]\.insights\[0\]\.value is required$/],
    [
      'an insight with a null value',
      { projects: [{ name: 'P', insights: [{ title: 't', value: null }] }] },
      /^projects\[0\]\.insights\[0\]\.value must be a string or a number$/,
    ],
    [
      'an insight with a boolean value',
      { projects: [{ name: 'P', insights: [{ title: 't', value: true }] }] },
      /insights\[0\]\.value must be a string or a number$/,
    ],
    ['an insight without title', { projects: [{ name: 'P', insights: [{ value: 1 }] }] }, /^projects\[0\]\.insights\[0\]\.title is required$/],
    ['an insight with a blank title', { projects: [{ name: 'P', insights: [{ title: '', value: 1 }] }] }, /^projects\[0\]\.insights\[0\]\.title is required$/],
    [
      'an insight icon of 17 characters',
      { projects: [{ name: 'P', insights: [{ title: 't', value: 1, icon: '🎉'.repeat(17) }] }] },
      /insights\[0\]\.icon must be at most 16 characters$/,
    ],
    [
      'an insight title of 501 characters',
      { projects: [{ name: 'P', insights: [{ title: 'a'.repeat(501), value: 1 }] }] },
      /insights\[0\]\.title must be at most 500/,
    ],
  ];
  for (const [label, body, message] of bad) {
    it(`refuses ${label} with 400 naming it, and imports nothing`, async () => {
      const org = await t.org();
      const reply = await importDoc(org, body);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.match(reply.body.error, message);
      assert.equal(await projectCount(org), 0);
    });
  }

  it('names the problem the whole-document checks meet first when a file has several', async () => {
    const org = await t.org();
    const cases: Array<[unknown, RegExp]> = [
      // Rows of a project are checked before its insights, after its name.
      [{ projects: [{ name: 'P', events: [event(0, { title: 1 })], insights: [{ title: 't' }] }] }, /^projects\[0\]\.events\[0\]\.title must be a string$/],
      [{ projects: [{ events: [event(0, { title: 1 })] }] }, /^projects\[0\]\.name is required$/],
      // An earlier project's insights before a later project's rows.
      [
        {
          projects: [
            { name: 'P', insights: [{ title: 't' }] },
            { name: 'Q', events: [{ title: 'x' }] },
          ],
        },
        /^projects\[0\]\.insights\[0\]\.value is required$/,
      ],
      // The schema of every row before the rules of any: a blank title, then a numeric one later on.
      [
        {
          projects: [
            { name: 'P', events: [event(0, { title: ' ' })] },
            { name: 'Q', events: [event(1, { title: 1 })] },
          ],
        },
        /^projects\[1\]\.events\[0\]\.title must be a string$/,
      ],
      // The rules project by project: a blank name comes before a later project's blank title...
      [
        {
          projects: [
            { name: ' ', events: [event(0)] },
            { name: 'Q', events: [event(1, { title: ' ' })] },
          ],
        },
        /^projects\[0\]\.name is required$/,
      ],
      // ...and an event's rule before a later project's name.
      [{ projects: [{ name: 'P', events: [event(0, { category: '' })] }, { name: ' ' }] }, /^projects\[0\]\.events\[0\]\.category is required$/],
      // Text the boundary refuses before any schema problem; JSON that does not parse before everything.
      [{ projects: [{ name: 1, events: [event(0, { title: 'a\u0000' })] }] }, /^body\.projects\[0\]\.events\[0\]\.title must not contain NUL/],
    ];
    for (const [body, message] of cases) {
      const reply = await importDoc(org, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(reply.body.error, message, JSON.stringify(body));
    }
    const payload = '{"projects":[{"name":1,"events":[{"title":"a\\u0000"}, ]}]}';
    const reply = await t.request({
      method: 'POST',
      url: '/api/import',
      payload,
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.deepEqual(reply.body, { error: 'Request body is not valid JSON' });
    assert.equal(await projectCount(org), 0);
  });

  it('refuses a project that gives its events twice', async () => {
    const org = await t.org();
    const payload = '{"projects":[{"name":"P","events":[],"events":[{"category":"c","title":"t"}]}]}';
    const reply = await t.request({
      method: 'POST',
      url: '/api/import',
      payload,
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, { error: 'projects[0] has more than one events field' });
    assert.equal(await projectCount(org), 0);
  });

  it('accepts every limit exactly at its boundary', async () => {
    const org = await t.org();
    const wrap = (n: number) => ({ d: 'x'.repeat(n) });
    const overhead = JSON.stringify(wrap(0)).length;
    const reply = await importDoc(org, {
      projects: [
        {
          name: '😀'.repeat(200),
          categories: ['😀'.repeat(100)],
          events: [event(0, { category: '😀'.repeat(100), icon: '🎉'.repeat(16), metadata: wrap(65536 - overhead), created_at: 0 })],
          insights: [{ title: '😀'.repeat(500), value: 0, icon: '🎉'.repeat(16) }],
        },
      ],
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.imported, { projects: 1, events: 1, insights: 1 });
  });

  it('refuses malformed JSON, a wrong content type and an empty body with 4xx {error}', async () => {
    const org = await t.org();
    const raw = (payload: string, contentType = 'application/json') =>
      t.request({ method: 'POST', url: '/api/import', payload, headers: { authorization: `Bearer ${org.key}`, 'content-type': contentType } });
    for (const reply of [
      await raw('{"projects":['),
      await raw(''),
      await raw('projects=1', 'text/plain'),
      await raw('{"projects":[{"name":"a","__proto__":{}}]}'),
    ]) {
      assert.ok(reply.status >= 400 && reply.status < 500, `${reply.status} ${JSON.stringify(reply.body)}`);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.equal(await projectCount(org), 0);
  });

  it('takes bodies over 1 MiB but refuses one over 256 MiB with 413', async () => {
    const org = await t.org();
    const events = Array.from({ length: 3000 }, (_, i) => event(i, { description: 'x'.repeat(400) }));
    const large = await importDoc(org, { projects: [{ name: 'Large', events }] });
    assert.equal(large.status, 200, JSON.stringify(large.body));
    // Refused from the declared length, before the body is read.
    const huge = await t.request({
      method: 'POST',
      url: '/api/import',
      payload: '{"projects":[]}',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'content-length': String(256 * 1024 * 1024 + 1) },
    });
    assert.equal(huge.status, 413, JSON.stringify(huge.body));
    assert.deepEqual(Object.keys(huge.body), ['error']);
    assert.equal(await projectCount(org), 1);
  });

  it('needs an API key', async () => {
    const reply = await t.request({ method: 'POST', url: '/api/import', body: { projects: [{ name: 'x' }] } });
    assert.equal(reply.status, 401);
  });
});

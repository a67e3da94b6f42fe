import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

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

/** One event, its tags sent as the raw JSON text given (so `1.50` stays as written). */
async function event(org: TestOrg, project: string, daysAgo: number, category: string, tagsJson?: string): Promise<number> {
  const { seconds } = await dayAgo(daysAgo);
  const payload = `{"project":${JSON.stringify(project)},"category":${JSON.stringify(category)},"title":"t","created_at":${seconds}${tagsJson ? `,"tags":${tagsJson}` : ''}}`;
  const reply = await t.request({
    method: 'POST',
    url: '/api/events',
    payload,
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
  });
  assert.equal(reply.status, 201, reply.raw.body);
  return reply.body.id;
}

async function chart(org: TestOrg, project: string, query: string): Promise<Record<string, Array<{ day: string; count: number }>>> {
  const reply = await org.get(`/api/charts?project=${project}&${query}`);
  assert.equal(reply.status, 200, `${query}: ${reply.raw.body}`);
  return JSON.parse(reply.raw.body);
}

describe('GET /api/charts with tag filters and groupBy', () => {
  it('groupBy=tag:<key> keys the series by the tag values as text, "(none)" for events without it', async () => {
    const { org, project } = await setup();
    const [d0, d1] = [await dayAgo(0), await dayAgo(1)];
    await event(org, project, 0, 'signup', '{"plan":"pro"}');
    await event(org, project, 0, 'signup', '{"plan":"pro","seats":3}');
    await event(org, project, 1, 'payment', '{"plan":"pro"}');
    await event(org, project, 0, 'signup', '{"plan":"free"}');
    await event(org, project, 0, 'signup', '{"seats":3}');
    await event(org, project, 1, 'signup');
    await event(org, project, 30, 'signup', '{"plan":"old"}'); // outside the 30 days
    assert.deepEqual(await chart(org, project, 'groupBy=tag:plan'), {
      '(none)': [
        { day: d1.day, count: 1 },
        { day: d0.day, count: 1 },
      ],
      free: [{ day: d0.day, count: 1 }],
      pro: [
        { day: d1.day, count: 1 },
        { day: d0.day, count: 2 },
      ],
    });
    assert.deepEqual(await chart(org, project, 'groupBy=tag:plan&category=signup'), {
      '(none)': [
        { day: d1.day, count: 1 },
        { day: d0.day, count: 1 },
      ],
      free: [{ day: d0.day, count: 1 }],
      pro: [{ day: d0.day, count: 2 }],
    });
    assert.deepEqual(await chart(org, project, 'groupBy=tag:plan&days=1'), {
      '(none)': [{ day: d0.day, count: 1 }],
      free: [{ day: d0.day, count: 1 }],
      pro: [{ day: d0.day, count: 2 }],
    });
    assert.equal((await chart(org, project, 'groupBy=tag:plan&days=31')).old?.length, 1);
    assert.deepEqual(await chart(org, project, 'groupBy=tag:nobody'), {
      '(none)': [
        { day: d1.day, count: 2 },
        { day: d0.day, count: 4 },
      ],
    });
  });

  it('writes values as the tag filter compares them: numbers as String(n), true, false, null', async () => {
    const { org, project } = await setup();
    const { day } = await dayAgo(2);
    await event(org, project, 2, 'c', '{"v":3}');
    await event(org, project, 2, 'c', '{"v":"3"}');
    await event(org, project, 2, 'c', '{"v":3.0}');
    await event(org, project, 2, 'c', '{"v":1.50}');
    await event(org, project, 2, 'c', '{"v":1e21}');
    await event(org, project, 2, 'c', '{"v":-0.0000001}');
    await event(org, project, 2, 'c', '{"v":true}');
    await event(org, project, 2, 'c', '{"v":"true"}');
    await event(org, project, 2, 'c', '{"v":false}');
    await event(org, project, 2, 'c', '{"v":null}');
    await event(org, project, 2, 'c', '{"v":"null"}');
    await event(org, project, 2, 'c', '{"v":""}');
    await event(org, project, 2, 'c', '{"v":{"b":1,"a":2}}');
    await event(org, project, 2, 'c', '{"v":["x"]}');
    const one = [{ day, count: 1 }];
    const body = await chart(org, project, 'groupBy=tag:v');
    const byValue = { ...body };
    assert.deepEqual(body, {
      '': one,
      '-1e-7': one,
      '1.5': one,
      '1e+21': one,
      '3': [{ day, count: 3 }],
      '["x"]': one,
      false: one,
      null: [{ day, count: 2 }],
      true: [{ day, count: 2 }],
      '{"a": 2, "b": 1}': one,
    });
    // Each key, given back as a tag filter, counts the same events (objects and arrays aside).
    for (const key of ['', '-1e-7', '1.5', '1e+21', '3', 'false', 'null', 'true']) {
      const filtered = await chart(org, project, `tag=${encodeURIComponent(`v:${key}`)}&groupBy=tag:v`);
      assert.deepEqual(filtered, { [key]: byValue[key] }, key);
    }
  });

  it('tag filters (repeatable, as in the feed) count only matching events, keyed by category', async () => {
    const { org, project } = await setup();
    const { day } = await dayAgo(0);
    await event(org, project, 0, 'signup', '{"plan":"pro","region":"eu"}');
    await event(org, project, 0, 'signup', '{"plan":"pro","region":"us"}');
    await event(org, project, 0, 'payment', '{"plan":"pro","region":"eu"}');
    await event(org, project, 0, 'signup', '{"plan":"free","region":"eu"}');
    await event(org, project, 0, 'signup', '{"plan":{"name":"pro"}}');
    await event(org, project, 0, 'signup');
    assert.deepEqual(await chart(org, project, 'tag=plan:pro'), { payment: [{ day, count: 1 }], signup: [{ day, count: 2 }] });
    assert.deepEqual(await chart(org, project, 'tag=plan:pro&tag=region:eu'), { payment: [{ day, count: 1 }], signup: [{ day, count: 1 }] });
    assert.deepEqual(await chart(org, project, 'tag=plan:pro&category=signup'), { signup: [{ day, count: 2 }] });
    assert.deepEqual(await chart(org, project, 'tag=region:eu&groupBy=tag:plan'), { free: [{ day, count: 1 }], pro: [{ day, count: 2 }] });
    assert.deepEqual(await chart(org, project, 'tag=plan:none'), {});
  });

  it('leaves out deleted events and events after today', async () => {
    const { org, project } = await setup();
    const { day } = await dayAgo(0);
    const gone = await event(org, project, 0, 'c', '{"plan":"pro"}');
    await event(org, project, 0, 'c', '{"plan":"pro"}');
    await event(org, project, -1, 'c', '{"plan":"pro"}');
    assert.equal((await org.post(`/api/events/${gone}/delete`)).status, 200);
    assert.deepEqual(await chart(org, project, 'groupBy=tag:plan'), { pro: [{ day, count: 1 }] });
  });

  it('answers 400 for a malformed tag or groupBy, 404 for another organization', async () => {
    const { org, project } = await setup();
    for (const query of [
      'tag=plan',
      'tag=:pro',
      'tag=',
      'groupBy=',
      'groupBy=plan',
      'groupBy=tag:',
      'groupBy=category',
      'groupBy=tag:a&groupBy=tag:b',
      'groupBy=tag:a&days=0',
    ]) {
      const reply = await org.get(`/api/charts?project=${project}&${query}`);
      assert.equal(reply.status, 400, query);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    const other = await t.org();
    assert.equal((await other.get(`/api/charts?project=${project}&groupBy=tag:plan`)).status, 404);
  });
});

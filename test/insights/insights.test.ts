import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Announcement } from '../../src/db/bus.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

async function list(org: TestOrg, project: string) {
  const reply = await org.get(`/api/insights?project=${project}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as Array<{ id: number; projectId: string; title: string; value: string; icon: string | null; updatedAt: string }>;
}

/** Resolves with the first announcement that matches, as delivered through NOTIFY. */
function nextAnnouncement(match: (a: Announcement) => boolean, timeoutMs = 5000): Promise<Announcement> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('no announcement arrived'));
    }, timeoutMs);
    const stop = t.services.bus.subscribe((announcement) => {
      if (!match(announcement)) return;
      clearTimeout(timer);
      stop();
      resolve(announcement);
    });
  });
}

describe('POST /api/insight', () => {
  it('creates an insight and lists it with its value as text', async () => {
    const { org, project } = await setup();
    const reply = await org.post('/api/insight', { project, title: 'Revenue', value: '$1,200', icon: '💰' });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true });
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const [insight, ...rest] = await list(org, project);
    assert.equal(rest.length, 0);
    assert.ok(insight && Number.isInteger(insight.id) && insight.id > 0);
    assert.deepEqual(insight, { id: insight.id, projectId: project, title: 'Revenue', value: '$1,200', icon: '💰', updatedAt: insight.updatedAt });
    assert.match(insight.updatedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('stores numbers as text and accepts 0 and the empty string', async () => {
    const { org, project } = await setup();
    const values: Array<[string, string | number, string]> = [
      ['zero', 0, '0'],
      ['empty', '', ''],
      ['int', 42, '42'],
      ['float', 1.5, '1.5'],
      ['negative', -7, '-7'],
      ['big', 1e21, '1e+21'],
      ['text zero', '0', '0'],
    ];
    for (const [title, value] of values) {
      assert.equal((await org.post('/api/insight', { project, title, value })).status, 200, title);
    }
    const stored = Object.fromEntries((await list(org, project)).map((i) => [i.title, i.value]));
    assert.deepEqual(stored, Object.fromEntries(values.map(([title, , text]) => [title, text])));
  });

  it('updates the value of the same (project, title), keeping the icon when it is omitted', async () => {
    const { org, project } = await setup();
    await org.post('/api/insight', { project, title: 'Users', value: 1, icon: '👤' });
    const [before] = await list(org, project);
    // Time itself: the update gets a later timestamp.
    await sleep(5);
    await org.post('/api/insight', { project, title: 'Users', value: 2 });
    const [after, ...rest] = await list(org, project);
    assert.equal(rest.length, 0);
    assert.equal(after!.id, before!.id);
    assert.equal(after!.value, '2');
    assert.equal(after!.icon, '👤');
    assert.ok(Date.parse(after!.updatedAt) > Date.parse(before!.updatedAt));

    await org.post('/api/insight', { project, title: 'Users', value: 3, icon: '🧑' });
    assert.equal((await list(org, project))[0]!.icon, '🧑');
    // An explicit null is supplied, unlike an omitted icon: it clears the icon.
    await org.post('/api/insight', { project, title: 'Users', value: 4, icon: null });
    const [cleared] = await list(org, project);
    assert.deepEqual([cleared!.value, cleared!.icon], ['4', null]);
  });

  it('keeps titles apart per project and is case-sensitive about them', async () => {
    const { org, project } = await setup();
    const second = await org.project('Second');
    await org.post('/api/insight', { project, title: 'A', value: 1 });
    await org.post('/api/insight', { project, title: 'a', value: 2 });
    await org.post('/api/insight', { project: second, title: 'A', value: 3 });
    assert.deepEqual(
      (await list(org, project)).map((i) => [i.title, i.value]),
      [
        ['A', '1'],
        ['a', '2'],
      ],
    );
    assert.deepEqual(
      (await list(org, second)).map((i) => [i.title, i.value]),
      [['A', '3']],
    );
  });

  it('counts the icon and title limits in code points', async () => {
    const { org, project } = await setup();
    assert.equal((await org.post('/api/insight', { project, title: 'i16', value: 1, icon: '🎉'.repeat(16) })).status, 200);
    assert.equal((await org.post('/api/insight', { project, title: 'i17', value: 1, icon: '🎉'.repeat(17) })).status, 400);
    assert.equal((await org.post('/api/insight', { project, title: 'a16', value: 1, icon: 'a'.repeat(16) })).status, 200);
    assert.equal((await org.post('/api/insight', { project, title: 'a17', value: 1, icon: 'a'.repeat(17) })).status, 400);
    assert.equal((await org.post('/api/insight', { project, title: '😀'.repeat(500), value: 1 })).status, 200);
    const long = await org.post('/api/insight', { project, title: '😀'.repeat(501), value: 1 });
    assert.equal(long.status, 400);
    assert.match(long.body.error, /title must be at most 500 characters/);
    // A refused update leaves the stored insight as it was.
    assert.equal((await org.post('/api/insight', { project, title: 'i16', value: 2, icon: '🎉'.repeat(17) })).status, 400);
    const stored = await list(org, project);
    assert.deepEqual(
      stored.map((i) => i.title),
      ['i16', 'a16', '😀'.repeat(500)],
    );
    assert.equal(stored[0]!.value, '1');
  });

  it('answers 404 for a project of another organization or an unknown one, and writes nothing', async () => {
    const { org, project } = await setup();
    const other = await t.org();
    const foreign = await other.post('/api/insight', { project, title: 't', value: 1 });
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.body), ['error']);
    const unknown = await other.post('/api/insight', { project: 'nosuchproject', title: 't', value: 1 });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, foreign.body.error);
    assert.deepEqual(await list(org, project), []);
  });

  it('announces the write on the bus', async () => {
    const { org, project } = await setup();
    const heard = nextAnnouncement((a) => a.type === 'insight.upserted' && a.projectId === project);
    await org.post('/api/insight', { project, title: 't', value: 1 });
    const [insight] = await list(org, project);
    assert.deepEqual(await heard, { type: 'insight.upserted', organizationId: org.id, projectId: project, id: insight!.id });
  });

  const bad: Array<[string, Record<string, unknown>]> = [
    ['missing project', { title: 't', value: 1 }],
    ['empty project', { project: '', title: 't', value: 1 }],
    ['numeric project', { project: 5, title: 't', value: 1 }],
    ['missing title', { value: 1 }],
    ['empty title', { title: '', value: 1 }],
    ['blank title', { title: '   ', value: 1 }],
    ['numeric title', { title: 5, value: 1 }],
    ['null title', { title: null, value: 1 }],
    ['missing value', { title: 't' }],
    ['null value', { title: 't', value: null }],
    ['boolean value', { title: 't', value: true }],
    ['object value', { title: 't', value: { a: 1 } }],
    ['array value', { title: 't', value: [1] }],
    ['numeric icon', { title: 't', value: 1, icon: 7 }],
    ['object icon', { title: 't', value: 1, icon: {} }],
    ['17-character icon', { title: 't', value: 1, icon: '✨'.repeat(17) }],
    ['NUL in title', { title: 'a\u0000b', value: 1 }],
    ['NUL in value', { title: 't', value: 'a\u0000b' }],
    ['NUL in icon', { title: 't', value: 1, icon: '\u0000' }],
  ];
  for (const [label, body] of bad) {
    it(`refuses ${label} with 400 {error} and writes nothing`, async () => {
      const { org, project } = await setup();
      const withProject = label.includes('project') ? body : { project, ...body };
      const reply = await org.post('/api/insight', withProject);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.equal(typeof reply.body.error, 'string');
      assert.deepEqual(await list(org, project), []);
    });
  }

  it('refuses malformed JSON, a non-object body, a wrong content type and a huge body', async () => {
    const { org, project } = await setup();
    const raw = (payload: string, contentType = 'application/json') =>
      t.request({ method: 'POST', url: '/api/insight', payload, headers: { authorization: `Bearer ${org.key}`, 'content-type': contentType } });
    for (const reply of [
      await raw('{"project":'),
      await raw('[]'),
      await raw('null'),
      await raw('"x"'),
      await raw('title=t', 'application/x-www-form-urlencoded'),
    ]) {
      assert.ok(reply.status === 400 || reply.status === 415, `${reply.status} ${JSON.stringify(reply.body)}`);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    const huge = await org.post('/api/insight', { project, title: 't', value: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(huge.status, 413);
    assert.deepEqual(Object.keys(huge.body), ['error']);
    assert.deepEqual(await list(org, project), []);
  });

  it('needs an API key', async () => {
    const { project } = await setup();
    const reply = await t.request({ method: 'POST', url: '/api/insight', body: { project, title: 't', value: 1 } });
    assert.equal(reply.status, 401);
    assert.equal((await t.request({ method: 'GET', url: `/api/insights?project=${project}` })).status, 401);
    assert.equal((await t.request({ method: 'POST', url: '/api/insight/1/delete' })).status, 401);
  });
});

describe('POST /api/insight/:insightId/delete', () => {
  it('deletes the insight and announces it', async () => {
    const { org, project } = await setup();
    await org.post('/api/insight', { project, title: 'a', value: 1 });
    await org.post('/api/insight', { project, title: 'b', value: 2 });
    const [first] = await list(org, project);
    const heard = nextAnnouncement((a) => a.type === 'insight.deleted' && a.projectId === project);
    const reply = await org.post(`/api/insight/${first!.id}/delete`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { id: first!.id, deleted: true });
    assert.deepEqual(await heard, { type: 'insight.deleted', organizationId: org.id, projectId: project, id: first!.id });
    assert.deepEqual(
      (await list(org, project)).map((i) => i.title),
      ['b'],
    );
    assert.equal((await org.post(`/api/insight/${first!.id}/delete`)).status, 404);
    // The title is free again: a new insight gets a new id.
    await org.post('/api/insight', { project, title: 'a', value: 3 });
    assert.notEqual((await list(org, project)).find((i) => i.title === 'a')!.id, first!.id);
  });

  it('answers 404 for another organization insight and leaves it alone', async () => {
    const { org, project } = await setup();
    await org.post('/api/insight', { project, title: 'a', value: 1 });
    const [insight] = await list(org, project);
    const other = await t.org();
    const reply = await other.post(`/api/insight/${insight!.id}/delete`);
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    assert.equal((await other.post('/api/insight/2147483647/delete')).status, 404);
    assert.equal((await list(org, project)).length, 1);
  });

  for (const id of ['0', '-1', 'abc', '1.5', '2147483648', '99999999999', '1e3', ' 1', '0x10']) {
    it(`refuses insight id ${JSON.stringify(id)} with 400`, async () => {
      const org = await t.org();
      const reply = await org.post(`/api/insight/${encodeURIComponent(id)}/delete`);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
    });
  }
});

describe('GET /api/insights', () => {
  it('lists only the project insights, oldest first', async () => {
    const { org, project } = await setup();
    for (const title of ['c', 'a', 'b']) await org.post('/api/insight', { project, title, value: title });
    assert.deepEqual(
      (await list(org, project)).map((i) => i.title),
      ['c', 'a', 'b'],
    );
  });

  it('answers 404 without a project or with another organization one', async () => {
    const { org, project } = await setup();
    await org.post('/api/insight', { project, title: 'secret', value: 1 });
    const other = await t.org();
    for (const url of [`/api/insights?project=${project}`, '/api/insights', '/api/insights?project=', '/api/insights?project=nosuchproject']) {
      const reply = await other.get(url);
      assert.equal(reply.status, 404, url);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.equal((await other.get(`/api/insights?project=${project}&project=${project}`)).status, 400);
  });
});

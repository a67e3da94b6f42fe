import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

function send(org: TestOrg | null, method: 'POST' | 'PATCH', url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const auth: Record<string, string> = org ? { authorization: `Bearer ${org.key}` } : {};
  return t.request({ method, url, body, headers: { ...auth, ...headers } });
}

async function feed(org: TestOrg, project: string) {
  const reply = await org.get(`/api/events?project=${project}`);
  assert.equal(reply.status, 200);
  return reply.body.events as Array<Record<string, unknown>>;
}

describe('POST /v1/log', () => {
  it("maps LogSnag's fields onto an event and answers 200 with the event object", async () => {
    const org = await t.org();
    const project = await org.project('my-saas');
    const reply = await send(org, 'POST', '/v1/log', {
      project: 'my-saas',
      channel: 'payments',
      event: 'New Subscription',
      description: 'user@example.com subscribed to **Pro**',
      icon: '💰',
      notify: true,
      tags: { plan: 'pro', seats: 3, trial: false },
      user_id: 'user-123',
      timestamp: 1_700_000_000,
      parser: 'markdown',
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const event = reply.body;
    assert.deepEqual(event, {
      id: event.id,
      projectId: project,
      category: 'payments',
      title: 'New Subscription',
      description: 'user@example.com subscribed to **Pro**',
      icon: '💰',
      tags: { plan: 'pro', seats: 3, trial: false },
      metadata: null,
      url: null,
      user_id: 'user-123',
      notify: true,
      favorited: false,
      createdAt: '2023-11-14T22:13:20.000Z',
    });
    const [listed] = await feed(org, project);
    assert.deepEqual(listed, event);
  });

  it('takes the project by id, and its minimal body is project, channel and event', async () => {
    const org = await t.org();
    const project = await org.project('by id');
    const reply = await send(org, 'POST', '/v1/log', { project, channel: 'c', event: 'e' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.projectId, project);
    assert.equal(reply.body.notify, false);
    const nulls = await send(org, 'POST', '/v1/log', { project, channel: 'c', event: 'e', notify: null, parser: null, timestamp: null });
    assert.equal(nulls.status, 200, JSON.stringify(nulls.body));
  });

  it('an id wins over a name; two projects of the name are 400; an unknown project is 404', async () => {
    const org = await t.org();
    const first = await org.project('twin');
    await org.project('twin');
    const ambiguous = await send(org, 'POST', '/v1/log', { project: 'twin', channel: 'c', event: 'e' });
    assert.equal(ambiguous.status, 400);
    assert.match(ambiguous.body.error, /twin/);
    const named = await org.project(first);
    const byId = await send(org, 'POST', '/v1/log', { project: first, channel: 'c', event: 'e' });
    assert.equal(byId.body.projectId, first, 'the id, not the project named like it');
    assert.equal((await feed(org, named)).length, 0);
    assert.equal((await send(org, 'POST', '/v1/log', { project: 'nope', channel: 'c', event: 'e' })).status, 404);
    assert.equal((await send(org, 'POST', '/v1/log', { project: 'Twin', channel: 'c', event: 'e' })).status, 404, 'names match exactly');
  });

  it('parser "text" escapes Markdown so the description shows literally', async () => {
    const org = await t.org();
    const project = await org.project();
    const description = '# Title **bold** _x_ [link](http://a.b) `code` 1. <b> a\\b';
    const reply = await send(org, 'POST', '/v1/log', { project, channel: 'c', event: 'e', description, parser: 'text' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.description, '\\# Title \\*\\*bold\\*\\* \\_x\\_ \\[link\\]\\(http://a\\.b\\) \\`code\\` 1\\. \\<b\\> a\\\\b');
  });

  it('answers bad input with 400 {error} and writes nothing', async () => {
    const org = await t.org();
    const project = await org.project('p');
    const bodies: unknown[] = [
      { project, channel: 'c', event: 'e', parser: 'html' },
      { project, channel: 'c' },
      { project, event: 'e' },
      { channel: 'c', event: 'e' },
      { project, channel: '', event: 'e' },
      { project, channel: 'c', event: '  ' },
      { project, channel: 'c', event: 'e', tags: 'x' },
      { project, channel: 'c', event: 'e', timestamp: 'yesterday' },
      { project, channel: 'c', event: 'e', timestamp: -1 },
      { project, channel: 'c', event: 'e', notify: 'yes' },
      { project: '', channel: 'c', event: 'e' },
    ];
    for (const body of bodies) {
      const reply = await send(org, 'POST', '/v1/log', body);
      assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${reply.status} ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
    }
    assert.equal((await feed(org, project)).length, 0);
  });

  it("takes bearer API keys only: 401 without one; another organization's project is 404", async () => {
    const [mine, theirs] = [await t.org(), await t.org()];
    const project = await theirs.project('shared name');
    assert.equal((await send(null, 'POST', '/v1/log', { project, channel: 'c', event: 'e' })).status, 401);
    assert.equal((await send(null, 'POST', '/v1/log', { project, channel: 'c', event: 'e' }, { authorization: 'Bearer nope' })).status, 401);
    assert.equal((await send(mine, 'POST', '/v1/log', { project, channel: 'c', event: 'e' })).status, 404);
    assert.equal((await send(mine, 'POST', '/v1/log', { project: 'shared name', channel: 'c', event: 'e' })).status, 404);
    assert.equal((await feed(theirs, project)).length, 0);
  });
});

describe('POST and PATCH /v1/insight', () => {
  it('set and increment an insight of a project named by name or id', async () => {
    const org = await t.org();
    const project = await org.project('shop');
    const set = await send(org, 'POST', '/v1/insight', { project: 'shop', title: 'Orders', value: 10, icon: '🛒' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { ok: true });
    const inc = await send(org, 'PATCH', '/v1/insight', { project: 'shop', title: 'Orders', value: { $inc: 5 } });
    assert.deepEqual(inc.body, { ok: true, value: '15' });
    const byId = await send(org, 'PATCH', '/v1/insight', { project, title: 'Orders', value: { $inc: -1 } });
    assert.deepEqual(byId.body, { ok: true, value: '14' });
    const [insight] = (await org.get(`/api/insights?project=${project}`)).body;
    assert.equal(insight.value, '14');
    assert.equal(insight.icon, '🛒');
  });

  it('answer 400, 401 and 404 as the /api routes do', async () => {
    const [org, other] = [await t.org(), await t.org()];
    const project = await org.project('p');
    const theirs = await other.project('q');
    assert.equal((await send(org, 'POST', '/v1/insight', { project, title: '', value: 1 })).status, 400);
    assert.equal((await send(org, 'POST', '/v1/insight', { project, title: 't' })).status, 400);
    assert.equal((await send(org, 'PATCH', '/v1/insight', { project, title: 't', value: 3 })).status, 400);
    await send(org, 'POST', '/v1/insight', { project, title: 'words', value: 'many' });
    assert.equal((await send(org, 'PATCH', '/v1/insight', { project, title: 'words', value: { $inc: 1 } })).status, 400);
    assert.equal((await send(null, 'POST', '/v1/insight', { project, title: 't', value: 1 })).status, 401);
    assert.equal((await send(null, 'PATCH', '/v1/insight', { project, title: 't', value: { $inc: 1 } })).status, 401);
    assert.equal((await send(org, 'POST', '/v1/insight', { project: theirs, title: 't', value: 1 })).status, 404);
    assert.equal((await send(org, 'PATCH', '/v1/insight', { project: 'q', title: 't', value: { $inc: 1 } })).status, 404);
    assert.equal((await other.get(`/api/insights?project=${theirs}`)).body.length, 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LogSnag as TheirLogSnag } from '@logsnag/node';
import { EventlogError, HTTPResponseError, LogSnag } from '../../client/src/index.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { listen } from './support.ts';

const t = useTestApp();
const server = listen(t);

/** `@logsnag/node` posts to https://api.logsnag.com: its requests go to the test server instead. */
const realFetch = globalThis.fetch;
before(() => {
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('https://api.logsnag.com/')) return realFetch(input, init);
    return realFetch(url.replace('https://api.logsnag.com', await server.url()), init);
  };
});
after(() => {
  globalThis.fetch = realFetch;
});

interface Client {
  track: TheirLogSnag['track'];
  identify: TheirLogSnag['identify'];
  group: TheirLogSnag['group'];
  insight: {
    track: (options: { title: string; value: string | number | boolean; icon?: string }) => Promise<boolean>;
    increment: (options: { title: string; value: number; icon?: string }) => Promise<boolean>;
  };
  disableTracking(): void;
  enableTracking(): void;
  isTrackingDisabled(): boolean;
}

const DATED = new Date('2024-03-04T05:06:07.890Z');

/** One scenario of every method; collects each call's result. */
async function scenario(client: Client): Promise<unknown[]> {
  const results: unknown[] = [];
  results.push(
    await client.track({
      channel: 'signups',
      event: 'Dated ms',
      description: '**Bold** _text_',
      icon: '🎉',
      tags: { plan: 'pro', seats: 3, trial: true },
      notify: true,
      user_id: 'u1',
      parser: 'text',
      timestamp: DATED,
    }),
  );
  results.push(await client.track({ channel: 'signups', event: 'Dated seconds', user_id: 'u2', timestamp: 1_700_000_000 }));
  results.push(await client.track({ channel: 'payments', event: 'Now', description: 'plain' }));
  results.push(await client.identify({ user_id: 'u1', properties: { name: 'Ann', paid: true, seats: 2 } }));
  results.push(await client.group({ group_id: 'acme', user_id: 'u1' }));
  results.push(await client.group({ group_id: 'acme', user_id: undefined, properties: { name: 'Acme', seats: 5 } }));
  results.push(await client.group({ group_id: 'acme', user_id: 'u3', properties: { plan: 'pro' } }));
  results.push(await client.insight.track({ title: 'MRR', value: 1200, icon: '💰' }));
  results.push(await client.insight.track({ title: 'Status', value: 'green' }));
  results.push(await client.insight.increment({ title: 'Signups', value: 2, icon: '📈' }));
  results.push(await client.insight.increment({ title: 'Signups', value: -0.5 }));
  results.push(client.isTrackingDisabled());
  client.disableTracking();
  results.push(client.isTrackingDisabled());
  results.push(await client.track({ channel: 'signups', event: 'Never sent' }));
  results.push(await client.identify({ user_id: 'nobody', properties: {} }));
  results.push(await client.group({ group_id: 'never', user_id: 'nobody' }));
  results.push(await client.insight.track({ title: 'Never', value: 1 }));
  results.push(await client.insight.increment({ title: 'Never', value: 1 }));
  client.enableTracking();
  results.push(client.isTrackingDisabled());
  return results;
}

/** What the organization holds after the scenario, without what differs by nature (ids, now). */
async function stored(org: TestOrg, project: string) {
  const events = (await org.get(`/api/events?project=${project}&limit=100`)).body.events.map(
    ({ id: _id, projectId: _project, createdAt, ...event }: Record<string, unknown>) => ({
      ...event,
      ...(String(event.title).startsWith('Dated') ? { createdAt } : {}),
    }),
  );
  const users = (await org.get(`/api/users?project=${project}`)).body.users.map(({ userId, properties, eventCount }: Record<string, unknown>) => ({
    userId,
    properties,
    eventCount,
  }));
  const groups = (await org.get(`/api/groups?project=${project}`)).body.groups.map(({ id, properties, users }: Record<string, unknown>) => ({
    id,
    properties,
    users,
  }));
  const insights = ((await org.get(`/api/insights?project=${project}`)).body as Array<Record<string, unknown>>)
    .map(({ title, value, icon }) => ({ title, value, icon }))
    .sort((a, b) => String(a.title).localeCompare(String(b.title)));
  return { events, users, groups, insights };
}

describe("LogSnag, the drop-in for @logsnag/node's client", () => {
  it('the same scenario through @logsnag/node 1.0.1 and through LogSnag answers and stores the same', async () => {
    const theirs = await t.org();
    const theirProject = await theirs.project('Shop');
    const ours = await t.org();
    const ourProject = await ours.project('Shop');
    const theirResults = await scenario(new TheirLogSnag({ token: theirs.key, project: 'Shop' }));
    const ourResults = await scenario(new LogSnag({ token: ours.key, project: 'Shop', baseUrl: await server.url() }));
    assert.deepEqual(ourResults, theirResults);
    assert.deepEqual(theirResults, [true, true, true, true, true, true, true, true, true, true, true, false, true, true, true, true, true, true, false]);
    const theirStore = await stored(theirs, theirProject);
    const ourStore = await stored(ours, ourProject);
    assert.deepEqual(ourStore, theirStore);
    // And what was stored is what the scenario said.
    assert.equal(ourStore.events.length, 3);
    assert.equal(ourStore.events.find((e: { title: string }) => e.title === 'Dated ms').createdAt, '2024-03-04T05:06:07.000Z');
    assert.equal(ourStore.events.find((e: { title: string }) => e.title === 'Dated seconds').createdAt, new Date(1_700_000_000_000).toISOString());
    assert.deepEqual(ourStore.groups, [{ id: 'acme', properties: { name: 'Acme', seats: 5, plan: 'pro' }, users: 2 }]);
    assert.deepEqual(
      ourStore.insights.find((i) => i.title === 'Signups'),
      { title: 'Signups', value: '1.5', icon: '📈' },
    );
  });

  it('a refused call throws, as @logsnag/node does; a project by id works too', async () => {
    const org = await t.org();
    const project = await org.project('Shop');
    const base = await server.url();
    const bad = { token: 'ev_00000000-0000-0000-0000-000000000000', project: 'Shop' };
    await assert.rejects(new TheirLogSnag(bad).track({ channel: 'c', event: 'e' }));
    await assert.rejects(new LogSnag({ ...bad, baseUrl: base }).track({ channel: 'c', event: 'e' }), (error: unknown) => {
      assert.ok(error instanceof HTTPResponseError && error instanceof EventlogError);
      assert.equal(error.status, 401);
      return true;
    });
    const unknown = new LogSnag({ token: org.key, project: 'Nope', baseUrl: base });
    await assert.rejects(unknown.group({ group_id: 'g', user_id: 'u' }), (error: unknown) => error instanceof EventlogError && error.status === 404);
    await assert.rejects(new TheirLogSnag({ token: org.key, project: 'Nope' }).group({ group_id: 'g', user_id: 'u' }));
    const byId = new LogSnag({ token: org.key, project, baseUrl: base });
    assert.equal(await byId.group({ group_id: 'g', user_id: 'u' }), true);
    assert.equal((await org.get(`/api/groups/g?project=${project}`)).body.group.users, 1);
  });

  it('disableTracking in the constructor sends nothing, and baseUrl defaults to http://localhost:3000', async () => {
    let requests = 0;
    const counting = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      requests++;
      return counting(input, init);
    };
    try {
      const quiet = new LogSnag({ token: 'ev_unused', project: 'p', disableTracking: true });
      assert.equal(quiet.isTrackingDisabled(), true);
      assert.equal(await quiet.track({ channel: 'c', event: 'e' }), true);
      assert.equal(await quiet.insight.increment({ title: 't', value: 1 }), true);
      assert.equal(requests, 0);
      const local = new LogSnag({ token: 'ev_unused', project: 'p' });
      globalThis.fetch = (input) => {
        requests++;
        assert.equal(input, 'http://localhost:3000/v1/identify');
        return Promise.resolve(new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } }));
      };
      assert.equal(await local.identify({ user_id: 'u', properties: {} }), true);
      assert.equal(requests, 1);
    } finally {
      globalThis.fetch = counting;
    }
  });
});

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it, type TestContext } from 'node:test';
import { type TestApp, type TestOrg, useTestApp } from '../helpers.ts';
import { startWorker } from './support.ts';
import { waitUntil } from '../wait.ts';

// No loops (extensions.md, "Destinations"): an event that reaches an incoming hook through a
// delivery is stored without notify, and the delivery's attempt log says so. Two installations,
// each with a database of its own and a worker, both listening on loopback.
const env = { ALLOW_PRIVATE_WEBHOOK_URLS: '1' };
const first = useTestApp(env, { ownDatabase: true });
const second = useTestApp(env, { ownDatabase: true });

const bases = new Map<TestApp, string>();
async function listenBoth(): Promise<void> {
  for (const t of [first, second]) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    bases.set(t, `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  }
}

function workers(tc: TestContext, ...apps: TestApp[]) {
  for (const t of apps) {
    const worker = startWorker(t);
    tc.after(() => worker.stop());
  }
}

/** A hook of `org`, reachable on loopback, asking for notify on every request it gets. */
async function notifyingHook(t: TestApp, org: TestOrg, project: string): Promise<string> {
  const hook = await org.post(`/api/projects/${project}/hooks`, { name: 'relay', category: 'relayed' });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  return `${bases.get(t)}${new URL(hook.body.url).pathname}?notify=1&title=Relayed`;
}

async function destinationTo(org: TestOrg, project: string, url: string): Promise<string> {
  const created = await org.post(`/api/projects/${project}/destinations`, { name: 'to a hook', url, format: 'json' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

interface LoggedDelivery {
  status: string;
  attempts: Array<{ status: number | null; note: string | null; response: string | null }>;
}

async function log(org: TestOrg, destination: string): Promise<LoggedDelivery[]> {
  return (await org.get(`/api/destinations/${destination}/deliveries`)).body.deliveries;
}

async function feed(org: TestOrg, project: string): Promise<Array<{ title: string; notify: boolean }>> {
  return (await org.get(`/api/events?project=${project}&limit=100`)).body.events;
}

/** Waits until the destination's log holds one finished delivery and every worker is idle. */
async function settledOnce(org: TestOrg, destination: string, ...apps: TestApp[]): Promise<LoggedDelivery> {
  await waitUntil(
    async () => {
      const deliveries = await log(org, destination);
      if (deliveries.length === 0 || deliveries.some((d) => d.status === 'pending')) return false;
      for (const t of apps) if ((await t.services.deliveries.queueDepth()) > 0) return false;
      return true;
    },
    { timeoutMs: 15_000, message: 'the delivery to settle and the queues to empty' },
  );
  const deliveries = await log(org, destination);
  assert.equal(deliveries.length, 1, 'one event makes one delivery, not a chain');
  return deliveries[0]!;
}

describe('no delivery loops', () => {
  // Inside the suite: it runs once both applications are up.
  before(listenBoth);

  it("a destination pointed at its own organization's hook: one event stays one event", async (tc) => {
    workers(tc, first);
    const org = await first.org();
    const project = await org.project();
    const destination = await destinationTo(org, project, await notifyingHook(first, org, project));
    assert.equal((await org.post('/api/events', { project, category: 'deploys', title: 'Deployed', notify: true })).status, 201);

    const delivery = await settledOnce(org, destination, first);
    assert.equal(delivery.status, 'succeeded');
    const [attempt] = delivery.attempts;
    assert.equal(attempt?.status, 201);
    assert.match(attempt?.note ?? '', /without notify.*this Eventlog installation/);
    const events = await feed(org, project);
    assert.deepEqual(
      events.map((e) => [e.title, e.notify]),
      [
        ['Relayed', false],
        ['Deployed', true],
      ],
    );
  });

  it("a destination pointed at another organization's hook of the installation stops there too", async (tc) => {
    workers(tc, first);
    const sender = await first.org();
    const receiver = await first.org();
    const [from, to] = [await sender.project(), await receiver.project()];
    const forward = await destinationTo(sender, from, await notifyingHook(first, receiver, to));
    // The receiving organization points back: without the rule the event would circle forever.
    const back = await destinationTo(receiver, to, await notifyingHook(first, sender, from));
    assert.equal((await sender.post('/api/events', { project: from, category: 'deploys', title: 'Deployed', notify: true })).status, 201);

    const delivery = await settledOnce(sender, forward, first);
    assert.match(delivery.attempts[0]?.note ?? '', /this Eventlog installation/);
    assert.deepEqual(
      (await feed(receiver, to)).map((e) => [e.title, e.notify]),
      [['Relayed', false]],
    );
    assert.deepEqual(await log(receiver, back), []);
  });

  it('two installations pointed at each other stop after one hop', async (tc) => {
    workers(tc, first, second);
    const a = await first.org();
    const b = await second.org();
    const [projectA, projectB] = [await a.project(), await b.project()];
    const aToB = await destinationTo(a, projectA, await notifyingHook(second, b, projectB));
    const bToA = await destinationTo(b, projectB, await notifyingHook(first, a, projectA));
    assert.equal((await a.post('/api/events', { project: projectA, category: 'deploys', title: 'Deployed', notify: true })).status, 201);

    const delivery = await settledOnce(a, aToB, first, second);
    assert.equal(delivery.status, 'succeeded');
    assert.match(delivery.attempts[0]?.note ?? '', /another Eventlog installation/);
    assert.deepEqual(
      (await feed(b, projectB)).map((e) => [e.title, e.notify]),
      [['Relayed', false]],
    );
    assert.deepEqual(await log(b, bToA), []);
    assert.equal((await feed(a, projectA)).length, 1);
  });

  it('a request without the marker still notifies, and a malformed marker is no marker', async () => {
    const org = await first.org();
    const project = await org.project();
    const url = new URL(await notifyingHook(first, org, project));
    const plain = await first.request({ method: 'POST', url: `${url.pathname}${url.search}` });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.notify, true);
    assert.equal(plain.headers['eventlog-delivery-note'], undefined);
    const odd = await first.request({ method: 'POST', url: `${url.pathname}${url.search}`, headers: { 'eventlog-delivery': 'not a marker' } });
    assert.equal(odd.body.notify, true);
    const marked = await first.request({ method: 'POST', url: `${url.pathname}${url.search}`, headers: { 'eventlog-delivery': 'abcdef0123456789.x1' } });
    assert.equal(marked.status, 201);
    assert.equal(marked.body.notify, false);
    assert.match(String(marked.headers['eventlog-delivery-note']), /another Eventlog installation/);
  });
});

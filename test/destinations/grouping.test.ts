import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { renderGroupBody } from '../../src/features/delivery/groupBody.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { startReceiver, startWorker } from './support.ts';
import { waitUntil } from '../wait.ts';

// Grouping bursts (extensions.md): windows are 10 s at least, so the tests end a held window by
// moving its due time in the database (the clock the worker reads) instead of waiting for it.
const BASE = 'https://events.example.com';
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: BASE }, { ownDatabase: true });

interface LoggedDelivery {
  id: string;
  status: string;
  eventIds: number[];
  attempts: unknown[];
}

async function log(org: TestOrg, destination: string): Promise<LoggedDelivery[]> {
  return (await org.get(`/api/destinations/${destination}/deliveries`)).body.deliveries;
}

/** Ends every held window of the organization now, as the clock would. */
async function endWindows(org: TestOrg): Promise<void> {
  await t.services.sql`UPDATE deliveries SET next_attempt_at = now() WHERE organization_id = ${org.id} AND status = 'pending'`;
}

function worker(tc: TestContext) {
  const started = startWorker(t);
  tc.after(() => started.stop());
  return started;
}

describe('grouping bursts', () => {
  it('takes 0 or 10-3600 seconds, never on json; 400 changes nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const url = 'https://ntfy.example/alerts';
    const plain = await org.post(`/api/projects/${project}/destinations`, { name: 'n', url, format: 'ntfy' });
    assert.equal(plain.body.groupWindowSeconds, 0);
    for (const bad of [5, 3601, 10.5, -1]) {
      const reply = await org.post(`/api/projects/${project}/destinations`, { name: 'n', url, format: 'ntfy', groupWindowSeconds: bad });
      assert.equal(reply.status, 400, String(bad));
    }
    const json = await org.post(`/api/projects/${project}/destinations`, { name: 'j', url: 'https://x.example/h', format: 'json', groupWindowSeconds: 60 });
    assert.equal(json.status, 400);
    const patch = (id: string, body: unknown) =>
      t.request({ method: 'PATCH', url: `/api/destinations/${id}`, body, headers: { authorization: `Bearer ${org.key}` } });
    assert.equal((await patch(plain.body.id, { groupWindowSeconds: 9 })).status, 400);
    const ok = await patch(plain.body.id, { groupWindowSeconds: 3600 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.groupWindowSeconds, 3600);
    assert.equal((await org.get(`/api/projects/${project}/destinations`)).body.length, 1);
  });

  it('holds a burst as one delivery that survives a restart, then sends "<n> events in <project>"', async (tc) => {
    const receiver = await startReceiver([200]);
    tc.after(() => receiver.close());
    const org = await t.org();
    const project = await org.project('Shop');
    const created = await org.post(`/api/projects/${project}/destinations`, {
      name: 'n',
      url: `http://127.0.0.1:${receiver.port}/alerts`,
      format: 'ntfy',
      groupWindowSeconds: 600,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const first = worker(tc);
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      ids.push((await org.post('/api/events', { project, category: 'orders', title: `Order ${i}`, notify: true })).body.id);
    }
    await waitUntil(async () => (await log(org, created.body.id))[0]?.eventIds.length === 12, { timeoutMs: 10_000, message: 'the burst to be held' });
    // The server restarts while the group is held: nothing is lost.
    await first.stop();
    assert.equal(receiver.received.length, 0, 'nothing is sent before the window ends');
    worker(tc);
    await endWindows(org);
    const [request] = await receiver.waitFor(1);
    const body = JSON.parse(request!.body);
    assert.equal(body.title, '12 events in Shop');
    assert.equal(body.click, `${BASE}/app/p/${project}`);
    const listed = (body.message as string).split('\n').filter((line) => line.startsWith('- '));
    assert.deepEqual(
      listed,
      Array.from({ length: 10 }, (_, i) => `- Order ${12 - i}`),
    );
    assert.match(body.message, /and 2 more/);
    await waitUntil(async () => (await log(org, created.body.id))[0]?.status === 'succeeded', { timeoutMs: 10_000, message: 'the group to be sent' });
    const deliveries = await log(org, created.body.id);
    assert.equal(deliveries.length, 1);
    assert.deepEqual(deliveries[0]?.eventIds, ids);

    // The next event opens a new window; a lone event goes as usual.
    const lone = (await org.post('/api/events', { project, category: 'orders', title: 'Order 13', notify: true })).body.id;
    await waitUntil(async () => (await log(org, created.body.id)).length === 2, { timeoutMs: 10_000, message: 'a new window' });
    await endWindows(org);
    const [, second] = await receiver.waitFor(2);
    const single = JSON.parse(second!.body);
    assert.equal(single.title, 'Order 13');
    assert.equal(single.click, `${BASE}/app/p/${project}?event=${lone}`);
    assert.equal(receiver.received.length, 2);
  });

  it("a group's mail links to the project's feed, never to ?event=0", () => {
    const group = { count: 3, titles: ['Three', 'Two', 'One'], projectId: 'p1', projectName: 'Shop' };
    const mail = JSON.parse(renderGroupBody('email', group, new Date(), { baseUrl: BASE, timeZone: 'UTC' })) as { subject: string; text: string; html: string };
    assert.equal(mail.subject, '[Shop] 3 events in Shop');
    assert.ok(mail.text.includes(`Open in Eventlog: ${BASE}/app/p/p1\n`), mail.text);
    assert.ok(mail.html.includes(`href="${BASE}/app/p/p1"`));
    assert.doesNotMatch(mail.text + mail.html, /event=0/);
  });
});

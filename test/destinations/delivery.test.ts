import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { claimDueDeliveries } from '../../src/features/delivery/webhookQueries.ts';
import { signatureHeaders } from '../../src/features/delivery/signing.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type Answer, type Receiver, startReceiver, startWorker } from './support.ts';
import { sleep, waitUntil } from '../wait.ts';

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: 'https://events.example.com' }, { ownDatabase: true });

interface Setup {
  org: TestOrg;
  project: string;
  receiver: Receiver;
  destination: { id: string; secret: string | null; [key: string]: unknown };
}

async function setup(tc: TestContext, format: 'json' | 'text' | 'embed', answers: Answer[] = [200], enabled = true): Promise<Setup> {
  const org = await t.org();
  const project = await org.project();
  const receiver = await startReceiver(answers);
  tc.after(() => receiver.close());
  const created = await org.post(`/api/projects/${project}/destinations`, { name: `${format} receiver`, url: receiver.url, format, enabled });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { org, project, receiver, destination: created.body };
}

function worker(tc: TestContext, options = {}) {
  const started = startWorker(t, options);
  tc.after(() => started.stop());
  return started;
}

async function notify(org: TestOrg, project: string, fields: Record<string, unknown> = {}) {
  const reply = await org.post('/api/events', { project, category: 'deploys', title: 'Deployed', notify: true, ...fields });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body;
}

async function deliveries(org: TestOrg, destinationId: string) {
  const reply = await org.get(`/api/destinations/${destinationId}/deliveries`);
  assert.equal(reply.status, 200);
  return reply.body.deliveries as Array<{
    id: string;
    eventId: number;
    eventTitle: string | null;
    webhookId: string;
    status: string;
    attempts: Array<{ status: number | null; error: string | null; durationMs: number | null; response: string | null }>;
  }>;
}

async function destinationOf(org: TestOrg, project: string, id: string) {
  const list = await org.get(`/api/projects/${project}/destinations`);
  return list.body.find((d: { id: string }) => d.id === id);
}

/** The log once it has at least `count` deliveries and none is pending. */
async function settled(org: TestOrg, destinationId: string, count = 1) {
  await waitUntil(
    async () => {
      const log = await deliveries(org, destinationId);
      return log.length >= count && log.every((d) => d.status !== 'pending');
    },
    { timeoutMs: 10_000, message: 'deliveries to settle' },
  );
  return deliveries(org, destinationId);
}

describe('delivery formats, byte for byte', () => {
  it('json: the signed envelope around the event exactly as POST /api/events returned it', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json');
    worker(tc);
    const event = await notify(org, project, {
      description: 'Plan **pro**',
      icon: '🚀',
      tags: { region: 'eu', build: 42 },
      metadata: { commit: 'abc' },
      url: 'https://ci.example.com/1',
      user_id: 'u1',
    });
    const [request] = await receiver.waitFor(1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/hook');
    assert.equal(request.headers['content-type'], 'application/json');
    const timestamp = JSON.parse(request.body).timestamp as string;
    assert.match(timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(request.body, JSON.stringify({ type: 'event.notify', project, timestamp, event }));
    assert.equal(Buffer.byteLength(request.body), Number(request.headers['content-length']));

    // Signed the Standard Webhooks way, checked by that project's own verifier.
    const id = request.headers['webhook-id'] as string;
    assert.match(id, /^msg_[a-z0-9]+$/);
    assert.ok(!id.includes('.'));
    assert.ok(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000) < 10);
    assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(destination.secret as string).verify(request.body, request.headers as Record<string, string>);
    assert.deepEqual(verified, JSON.parse(request.body));
    assert.throws(() => new Webhook(destination.secret as string).verify(`${request.body} `, request.headers as Record<string, string>));
  });

  it('text: {text} with the title in bold, then the description, then the url', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text');
    worker(tc);
    await notify(org, project, { title: 'New sale', description: 'Plan pro\nyearly', url: 'https://shop.example.com/o/1?a=1&b=<2>' });
    const [request] = await receiver.waitFor(1);
    assert.equal(request?.body, '{"text":"*New sale*\\nPlan pro\\nyearly\\nhttps://shop.example.com/o/1?a=1&amp;b=&lt;2&gt;"}');
    assert.equal(request?.headers['webhook-signature'], undefined);
  });

  it('text: missing description and url leave no empty lines', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text');
    worker(tc);
    await notify(org, project, { title: 'Just a title' });
    const [request] = await receiver.waitFor(1);
    assert.equal(request?.body, '{"text":"*Just a title*"}');
  });

  it('embed: one Discord embed with the category as footer; empty fields left out', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'embed');
    worker(tc);
    await notify(org, project, { title: 'Signup', description: 'From **Berlin**', url: 'https://app.example.com/u/7' });
    await notify(org, project, { title: 'Bare', category: 'misc', description: '', url: 'not a url' });
    await receiver.waitFor(2);
    const bodies = receiver.received.map((r) => r.body).sort();
    assert.deepEqual(bodies, [
      '{"embeds":[{"title":"Bare","footer":{"text":"misc"}}]}',
      '{"embeds":[{"title":"Signup","description":"From **Berlin**","url":"https://app.example.com/u/7","footer":{"text":"deploys"}}]}',
    ]);
  });

  it('embed: over-long title and description are cut to Discord limits, not refused', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'embed');
    worker(tc);
    await notify(org, project, { title: 'T'.repeat(300), description: 'd'.repeat(5000) });
    const [request] = await receiver.waitFor(1);
    const embed = JSON.parse(request?.body ?? '').embeds[0];
    assert.equal(embed.title, `${'T'.repeat(255)}…`);
    assert.equal(embed.description.length, 4096);
    assert.ok(embed.description.endsWith('…'));
    assert.ok(embed.title.length + embed.description.length + embed.footer.text.length <= 6000);
  });

  it('signs exactly as the published Standard Webhooks test vector', () => {
    const headers = signatureHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    // The same vector, signed by the standardwebhooks package itself.
    const reference = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
    );
    assert.equal(reference, headers['webhook-signature']);
  });
});

describe('retries', () => {
  it('500, 500, 200: three attempts under one webhook-id, then success', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json', [500, 500, 200]);
    worker(tc);
    await notify(org, project);
    const requests = await receiver.waitFor(3);
    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1);
    for (const request of requests) new Webhook(destination.secret as string).verify(request.body, request.headers as Record<string, string>);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'succeeded');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [500, 500, 200],
    );
    assert.equal(delivery?.webhookId, [...ids][0]);
    const shown = await destinationOf(org, project, destination.id);
    assert.equal(shown.lastStatus.ok, true);
    assert.equal(shown.lastStatus.status, 200);
    assert.equal(shown.lastStatus.error, null);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(receiver.received.length, 3);
  });

  it('400 is a definite rejection: one attempt, and lastStatus shows it', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json', [{ status: 400, body: 'bad payload' }]);
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(1);
    const [delivery] = await settled(org, destination.id);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(600);
    assert.equal(receiver.received.length, 1);
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.attempts.length, 1);
    assert.equal(delivery?.attempts[0]?.response, 'bad payload');
    const shown = await destinationOf(org, project, destination.id);
    assert.deepEqual({ ...shown.lastStatus, at: undefined }, { ok: false, at: undefined, status: 400, error: 'The receiver answered HTTP 400' });
  });

  it('429 is retried', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text', [429, 200]);
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(2);
    const [delivery] = await settled(org, destination.id);
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [429, 200],
    );
  });

  it('Retry-After stretches a wait up to the schedule, never beyond it', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text', [{ status: 429, headers: { 'retry-after': '30' } }, 200]);
    worker(tc, { retryDelaysMs: [100, 400] });
    await notify(org, project);
    const [first, second] = await receiver.waitFor(2);
    const gap = (second?.at ?? 0) - (first?.at ?? 0);
    assert.ok(gap >= 380 && gap < 1500, `waited ${gap} ms`);
  });

  it('gives up after three failed attempts', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'embed', [503]);
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(3);
    const [delivery] = await settled(org, destination.id);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(receiver.received.length, 3);
    assert.equal(delivery?.status, 'failed');
    assert.equal((await destinationOf(org, project, destination.id)).lastStatus.status, 503);
  });

  it('an attempt that gets no answer times out and is retried', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text', ['hang', 200]);
    worker(tc, { attemptTimeoutMs: 300 });
    await notify(org, project);
    await receiver.waitFor(2);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'succeeded');
    assert.equal(delivery?.attempts[0]?.status, null);
    assert.match(delivery?.attempts[0]?.error ?? '', /No response within/);
  });

  it('a receiver that is down is retried, and the error says why', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    await receiver.close();
    worker(tc);
    await notify(org, project);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.attempts.length, 3);
    assert.match(delivery?.attempts[0]?.error ?? '', /Connection refused/);
    const shown = await destinationOf(org, project, destination.id);
    assert.equal(shown.lastStatus.ok, false);
    assert.equal(shown.lastStatus.status, null);
    assert.match(shown.lastStatus.error, /Connection refused/);
  });

  it('keeps only the first 1 KB of a response', async (tc) => {
    const { org, project, destination } = await setup(tc, 'text', [{ status: 200, body: 'x'.repeat(5000) }]);
    worker(tc);
    await notify(org, project);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.attempts[0]?.response, 'x'.repeat(1024));
  });

  it('follows the real schedule: about 1 s, then about 5 s', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'json', [500, 500, 200]);
    worker(tc, { retryDelaysMs: undefined });
    await notify(org, project);
    const [a, b, c] = await receiver.waitFor(3, 15_000);
    const first = (b?.at ?? 0) - (a?.at ?? 0);
    const second = (c?.at ?? 0) - (b?.at ?? 0);
    assert.ok(first >= 950 && first < 1800, `first gap ${first} ms`);
    assert.ok(second >= 4950 && second < 6000, `second gap ${second} ms`);
  });
});

describe('who gets what', () => {
  it('a disabled destination and a notify:false event get nothing', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'json');
    const disabled = await startReceiver();
    tc.after(() => disabled.close());
    const off = await org.post(`/api/projects/${project}/destinations`, { name: 'off', url: disabled.url, format: 'text', enabled: false });
    assert.equal(off.body.enabled, false);
    worker(tc);
    await notify(org, project, { notify: false, title: 'quiet' });
    await notify(org, project, { title: 'loud' });
    await receiver.waitFor(1);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(receiver.received.length, 1);
    assert.equal(JSON.parse(receiver.received[0]?.body ?? '').event.title, 'loud');
    assert.equal(disabled.received.length, 0);
    assert.deepEqual(await deliveries(org, off.body.id), []);
  });

  it('does not slow the request that created the event', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text', ['hang']);
    worker(tc, { attemptTimeoutMs: 2000 });
    await notify(org, project);
    // The worker is now inside an attempt that the receiver never answers (2 s timeout). A
    // request that waited for delivery would take at least that long.
    await receiver.waitFor(1);
    const started = performance.now();
    await notify(org, project);
    assert.ok(performance.now() - started < 1900);
  });

  it('every enabled destination of the project gets the event; other projects do not', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'json');
    const second = await startReceiver();
    const elsewhere = await startReceiver();
    tc.after(() => second.close());
    tc.after(() => elsewhere.close());
    await org.post(`/api/projects/${project}/destinations`, { name: 'b', url: second.url, format: 'embed' });
    const other = await org.project('Other');
    await org.post(`/api/projects/${other}/destinations`, { name: 'c', url: elsewhere.url, format: 'json' });
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(1);
    await second.waitFor(1);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(elsewhere.received.length, 0);
  });

  it('an incoming hook event with Notify: 1 fans out too', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text');
    worker(tc);
    const hook = await org.post(`/api/projects/${project}/hooks`, { name: 'ci', category: 'ci' });
    const path = new URL(hook.body.url).pathname;
    const created = await t.request({
      method: 'POST',
      url: path,
      payload: 'Build green\nall tests pass',
      headers: { 'content-type': 'text/plain', notify: '1' },
    });
    assert.equal(created.status, 201);
    const [request] = await receiver.waitFor(1);
    assert.equal(request?.body, '{"text":"*Build green*\\nall tests pass"}');
  });
});

describe('durability', () => {
  it('a restart in the middle of retries still delivers, under the same webhook-id', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json', [500, 200]);
    const first = startWorker(t, { retryDelaysMs: [700, 700] });
    tc.after(() => first.stop());
    await notify(org, project);
    await receiver.waitFor(1);
    await waitUntil(async () => (await deliveries(org, destination.id))[0]?.attempts.length === 1, {
      timeoutMs: 5000,
      message: 'the first attempt to be recorded',
    });
    await first.stop();
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(800);
    assert.equal(receiver.received.length, 1, 'a stopped worker sends nothing');

    worker(tc);
    await receiver.waitFor(2);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'succeeded');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [500, 200],
    );
    assert.equal(receiver.received[0]?.headers['webhook-id'], receiver.received[1]?.headers['webhook-id']);
    new Webhook(destination.secret as string).verify(receiver.received[1]?.body ?? '', receiver.received[1]?.headers as Record<string, string>);
  });

  it('notify events written while no worker runs are delivered when one starts', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'text');
    await notify(org, project, { title: 'while down' });
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(200);
    assert.equal(receiver.received.length, 0);
    worker(tc);
    const [request] = await receiver.waitFor(1);
    assert.equal(request?.body, '{"text":"*while down*"}');
  });

  it('a claim whose process died is taken over once its lease expires', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    const fanOutOnly = startWorker(t, { concurrency: 0 });
    await notify(org, project);
    await waitUntil(async () => (await deliveries(org, destination.id)).length === 1, { timeoutMs: 5000, message: 'the fan-out' });
    await fanOutOnly.stop();
    // A process claims the delivery, then dies before sending it.
    const leased = await claimDueDeliveries(t.services.sql, { limit: 100, leaseMs: 600, leaseToken: 'crashed' });
    const claimed = leased.find((delivery) => delivery.organizationId === org.id);
    assert.ok(claimed);
    const started = performance.now();
    worker(tc);
    await receiver.waitFor(1);
    assert.ok(performance.now() - started >= 400, 'waited for the lease to expire');
    assert.equal((await settled(org, destination.id))[0]?.status, 'succeeded');
  });

  it('prunes finished deliveries past their keep time; pending and recent ones stay', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    const sender = startWorker(t);
    await notify(org, project, { title: 'old' });
    await notify(org, project, { title: 'recent' });
    await receiver.waitFor(2);
    await settled(org, destination.id, 2);
    await sender.stop();
    const fanOutOnly = startWorker(t, { concurrency: 0 });
    await notify(org, project, { title: 'old and still pending' });
    await waitUntil(async () => (await deliveries(org, destination.id)).length === 3, { timeoutMs: 5000, message: 'the fan-out' });
    await fanOutOnly.stop();

    const byTitle = new Map<string, string>();
    for (const delivery of await deliveries(org, destination.id)) {
      const [event] = await t.services.sql<{ title: string }[]>`SELECT title FROM events WHERE organization_id = ${org.id} AND id = ${delivery.eventId}`;
      byTitle.set(event?.title ?? '', delivery.id);
    }
    const aged = [byTitle.get('old'), byTitle.get('old and still pending')] as string[];
    await t.services.sql`UPDATE deliveries SET created_at = now() - interval '2 days' WHERE organization_id = ${org.id} AND id = ANY(${aged}::text[])`;

    worker(tc, { concurrency: 0, keepFinishedMs: 24 * 3600_000 });
    await waitUntil(async () => (await deliveries(org, destination.id)).length === 2, { timeoutMs: 5000, message: 'the old delivery to be pruned' });
    const kept = (await deliveries(org, destination.id)).map((delivery) => delivery.id).sort();
    assert.deepEqual(kept, [byTitle.get('recent'), byTitle.get('old and still pending')].sort());
    const [orphans] = await t.services.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM delivery_attempts WHERE organization_id = ${org.id} AND delivery_id = ${byTitle.get('old') ?? ''}`;
    assert.equal(orphans?.n, 0, 'its attempts went with it');
  });

  it('several workers share the queue and none sends a delivery twice', async (tc) => {
    const { org, project, receiver } = await setup(tc, 'json');
    for (let i = 0; i < 3; i++) worker(tc, { concurrency: 4 });
    await Promise.all(Array.from({ length: 30 }, (_, i) => notify(org, project, { title: `event ${i}` })));
    await receiver.waitFor(30);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(receiver.received.length, 30);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 30);
    assert.equal(new Set(receiver.received.map((r) => JSON.parse(r.body).event.title)).size, 30);
  });
});

describe('test action, attempt log and replay', () => {
  it('Test sends a sample event once and answers with the outcome', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json');
    const reply = await org.post(`/api/destinations/${destination.id}/test`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true, status: 200, error: null });
    const [request] = await receiver.waitFor(1);
    const body = new Webhook(destination.secret as string).verify(request?.body ?? '', request?.headers as Record<string, string>) as Record<string, unknown>;
    assert.equal(body.type, 'event.notify');
    assert.equal(body.project, project);
    assert.equal((body.event as { notify: boolean }).notify, true);
    const [delivery] = await deliveries(org, destination.id);
    assert.equal(delivery?.eventId, 0);
    assert.equal(delivery?.status, 'succeeded');
    const shown = await destinationOf(org, project, destination.id);
    assert.equal(shown.lastStatus.ok, true);
  });

  it('Test makes a single attempt even when the receiver fails', async (tc) => {
    const { org, destination, receiver } = await setup(tc, 'text', [503]);
    worker(tc);
    const reply = await org.post(`/api/destinations/${destination.id}/test`);
    assert.deepEqual(reply.body, { ok: false, status: 503, error: 'The receiver answered HTTP 503' });
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(600);
    assert.equal(receiver.received.length, 1);
    const [delivery] = await deliveries(org, destination.id);
    assert.equal(delivery?.status, 'failed');
  });

  it('the attempt log pages newest first with a keyset cursor', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    worker(tc);
    for (let i = 0; i < 23; i++) await notify(org, project, { title: `n${i}` });
    await receiver.waitFor(23);
    await settled(org, destination.id, 20);
    const first = await org.get(`/api/destinations/${destination.id}/deliveries`);
    assert.equal(first.body.deliveries.length, 20);
    assert.equal(typeof first.body.nextCursor, 'string');
    const second = await org.get(`/api/destinations/${destination.id}/deliveries?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.equal(second.body.deliveries.length, 3);
    assert.equal(second.body.nextCursor, null);
    // Newest delivery first: the order deliveries were made in, which the fan-out need not take
    // in event order (two events of one moment may be fanned out the other way round).
    const log = [...first.body.deliveries, ...second.body.deliveries] as Array<{ eventId: number; createdAt: string }>;
    const made = log.map((d) => Date.parse(d.createdAt));
    assert.deepEqual(
      made,
      [...made].sort((a, b) => b - a),
    );
    assert.equal(new Set(log.map((d) => d.eventId)).size, 23);
    const garbage = await org.get(`/api/destinations/${destination.id}/deliveries?cursor=nonsense`);
    assert.equal(garbage.body.deliveries.length, 20);
  });

  it("the attempt log names each delivery's event by its title; a Test delivery or a deleted event has none", async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    worker(tc);
    const kept = await notify(org, project, { title: 'Order #309 paid' });
    const gone = await notify(org, project, { title: 'Soon deleted' });
    await receiver.waitFor(2);
    await settled(org, destination.id, 2);
    assert.equal((await org.post(`/api/events/${gone.id}/delete`)).status, 200);
    assert.equal((await org.post(`/api/destinations/${destination.id}/test`)).status, 200);
    const log = await settled(org, destination.id, 3);
    const titles = log.map((delivery) => [delivery.eventId, delivery.eventTitle]);
    assert.deepEqual(titles, [
      [0, null],
      [gone.id, null],
      [kept.id, 'Order #309 paid'],
    ]);
  });

  it('replay queues the same body under the same webhook-id as a new log entry', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'json', [400, 200]);
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(1);
    const [failed] = await settled(org, destination.id);
    assert.equal(failed?.status, 'failed');
    const replay = await org.post(`/api/destinations/${destination.id}/deliveries/${failed?.id}/replay`);
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, { ok: true });
    const [first, second] = await receiver.waitFor(2);
    assert.equal(second?.body, first?.body);
    assert.equal(second?.headers['webhook-id'], first?.headers['webhook-id']);
    new Webhook(destination.secret as string).verify(second?.body ?? '', second?.headers as Record<string, string>);
    const log = await settled(org, destination.id, 2);
    assert.deepEqual(
      log.map((d) => d.status),
      ['succeeded', 'failed'],
    );
    assert.equal(log[0]?.webhookId, log[1]?.webhookId);
  });

  it('replay and the log are 404 for another organization', async (tc) => {
    const { org, project, receiver, destination } = await setup(tc, 'text');
    worker(tc);
    await notify(org, project);
    await receiver.waitFor(1);
    const [delivery] = await settled(org, destination.id);
    const stranger = await t.org();
    assert.equal((await stranger.get(`/api/destinations/${destination.id}/deliveries`)).status, 404);
    assert.equal((await stranger.post(`/api/destinations/${destination.id}/deliveries/${delivery?.id}/replay`)).status, 404);
    assert.equal((await org.post(`/api/destinations/${destination.id}/deliveries/nope/replay`)).status, 404);
  });
});

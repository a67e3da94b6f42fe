// Notification preferences end to end at a local push service (extensions.md, "Notification
// preferences"): what a member's browser receives, decrypted as the browser does. A notification
// outside quiet hours arrives; during quiet hours or a snooze nothing arrives, then one summary
// after the window; a critical alert arrives at once. The clock is injected into the fan-out and
// the summary loop (no test waits for real hours); the delivery worker sends what they queued.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { fanOutBatch } from '../../src/features/delivery/fanOutBatch.ts';
import { HeldSummaries } from '../../src/features/notificationPreferences/heldSummaries.ts';
import { signInAs, type Browser } from '../dashboard/signedIn.ts';
import { startWorker } from '../destinations/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type Certificate, type PushService, browserKeys, decrypt, selfSignedCertificate, startPushService } from '../push/support.ts';
import { alertEvent, put } from './support.ts';
import { waitUntil } from '../wait.ts';

const BASE = 'https://events.example.com';
// The fan-out, the summary loop and the delivery worker take every organization's rows: a database of the file's own.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: BASE }, { ownDatabase: true });

let tls: Certificate;
let service: PushService;
before(async () => {
  tls = selfSignedCertificate();
  service = await startPushService(tls);
});
after(async () => {
  await service?.close();
  tls?.remove();
});

const fanOut = (now: Date) => fanOutBatch(t.services.sql, { limit: 500, maxAttempts: 3, baseUrl: BASE, timeZone: 'UTC', now });
const summaries = (now: () => Date) => new HeldSummaries({ sql: t.services.sql, baseUrl: BASE, log: t.services.log, queued: () => undefined, now }, 3_600_000);

const queuedPushes = async (org: TestOrg) =>
  (await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM push_jobs WHERE organization_id = ${org.id}`)[0]!.n;
const heldCount = async (org: TestOrg) =>
  (await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM held_notifications WHERE organization_id = ${org.id} AND released_at IS NULL`)[0]!.n;

/**
 * Sends what the fan-out and the summaries queued, as the server's delivery worker does, and waits
 * until none of it is left. The worker runs only here: its own fan-out reads the real clock, and
 * every notify event is fanned out by the test's fanOut() first.
 */
async function sendQueued(org: TestOrg): Promise<void> {
  const worker = startWorker(t, { ca: tls.cert });
  try {
    await waitUntil(async () => (await queuedPushes(org)) === 0, { timeoutMs: 15_000, message: 'the queued pushes to be sent' });
  } finally {
    await worker.stop();
  }
}

interface Subscribed {
  org: TestOrg;
  project: string;
  member: Browser;
  /** What this browser's endpoint received, decrypted with its keys, in order. */
  pushes: () => { title: string; body: string; icon: string | null; url: string }[];
}

async function subscribedMember(): Promise<Subscribed> {
  const org = await t.org();
  const project = await org.project();
  const member = await signInAs(t, org);
  const keys = browserKeys();
  const path = `/push/${crypto.randomUUID()}`;
  const reply = await member.post(`/api/projects/${project}/push-subscriptions`, { endpoint: `${service.origin}${path}`, keys: keys.keys });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return {
    org,
    project,
    member,
    pushes: () => service.received.filter((push) => push.path === path).map((push) => JSON.parse(decrypt(push.body, keys.ecdh, keys.auth))),
  };
}

async function notify(org: TestOrg, project: string, title: string): Promise<void> {
  const reply = await org.post('/api/events', { project, category: 'orders', title, notify: true });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

describe('notification preferences at a local push service', () => {
  it('quiet hours across midnight: a daytime notification arrives, night ones arrive only as one summary at 07:00', async () => {
    const { org, project, member, pushes } = await subscribedMember();
    const quiet = { timeZone: 'Europe/Paris', start: '22:00', end: '07:00', days: [1, 2, 3, 4, 5, 6, 7] };
    assert.equal((await put(t, member, { quietHours: quiet })).status, 200);

    // Friday 2026-06-05 12:00 in Paris (UTC+2).
    await notify(org, project, 'Daytime order');
    await fanOut(new Date('2026-06-05T10:00:00Z'));
    await sendQueued(org);
    assert.deepEqual(
      pushes().map((push) => push.title),
      ['Daytime order'],
    );

    // 23:30 and 23:45: inside the window.
    await notify(org, project, 'Night order 1');
    await fanOut(new Date('2026-06-05T21:30:00Z'));
    await notify(org, project, 'Night order 2');
    await fanOut(new Date('2026-06-05T21:45:00Z'));
    assert.equal(await queuedPushes(org), 0, 'nothing queued for the push service');
    assert.equal(await heldCount(org), 2);

    const clock = { now: new Date('2026-06-06T04:59:00Z') };
    const loop = summaries(() => clock.now);
    assert.equal(await loop.runOnce(), 0, 'Saturday 06:59 is still quiet');
    assert.equal(await queuedPushes(org), 0);
    clock.now = new Date('2026-06-06T05:00:00Z');
    assert.equal(await loop.runOnce(), 1, 'Saturday 07:00 ends the window');
    assert.equal(await loop.runOnce(), 0, 'one summary');
    await sendQueued(org);

    // The endpoint saw the daytime notification and the summary, never a held one on its own.
    assert.deepEqual(pushes(), [
      { title: 'Daytime order', body: '#orders', icon: null, url: pushes()[0]!.url },
      { title: '2 notifications while you were away', body: 'Night order 2\nNight order 1', icon: null, url: `${BASE}/app` },
    ]);
    assert.match(pushes()[0]!.url, new RegExp(`^${BASE}/app/p/${project}\\?event=\\d+$`));
    assert.equal(await heldCount(org), 0);
  });

  it('a snooze holds until it runs out, then one summary arrives; a critical alert arrives at once; after the snooze, at once again', async () => {
    const { org, project, member, pushes } = await subscribedMember();
    const start = new Date();
    const until = Math.floor(start.getTime() / 1000) + 3600;
    assert.equal((await put(t, member, { snoozedUntil: until })).status, 200);

    for (let i = 1; i <= 3; i++) await notify(org, project, `Snoozed order ${i}`);
    await fanOut(start);
    await alertEvent(t, org, project, true, 'Alert firing: payments down');
    await fanOut(new Date(start.getTime() + 60_000));
    await sendQueued(org);
    assert.deepEqual(
      pushes().map((push) => push.title),
      ['Alert firing: payments down'],
      'the critical alert, and nothing held',
    );
    assert.equal(await heldCount(org), 3);

    const clock = { now: new Date(start.getTime() + 1_800_000) };
    const loop = summaries(() => clock.now);
    assert.equal(await loop.runOnce(), 0, 'half way through the snooze');
    clock.now = new Date((until + 1) * 1000);
    assert.equal(await loop.runOnce(), 1, 'the snooze ran out');
    await sendQueued(org);
    const summary = pushes()[1]!;
    assert.equal(summary.title, '3 notifications while you were away');
    assert.deepEqual(summary.body.split('\n'), ['Snoozed order 3', 'Snoozed order 2', 'Snoozed order 1']);
    assert.equal(summary.url, `${BASE}/app`);

    await notify(org, project, 'Order after the snooze');
    await fanOut(new Date((until + 60) * 1000));
    await sendQueued(org);
    assert.deepEqual(
      pushes().map((push) => push.title),
      ['Alert firing: payments down', '3 notifications while you were away', 'Order after the snooze'],
    );
  });
});

// Held notifications survive a server killed while holding them (extensions.md, "Notification
// preferences": "Held notifications survive a restart of the server"; decision 205). Real
// `eventlog serve` processes on the file's own database send to a local push service; the
// processes started after the kill run their clock two hours on (shiftedClock.mjs), past the
// snooze, so no test waits for the window to end.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { signInAs } from '../dashboard/signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type Certificate, type PushService, browserKeys, decrypt, selfSignedCertificate, startPushService } from '../push/support.ts';
import { ServerProcess, cleanUp, externalEnv, stopServers, tempDataDir } from '../storage/processes.ts';
import { put } from './support.ts';
import { waitUntil } from '../wait.ts';

const BASE = 'https://events.example.com';
const HOUR = 3_600_000;
const CLOCK = pathToFileURL(path.join(import.meta.dirname, 'shiftedClock.mjs')).href;

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: BASE }, { ownDatabase: true });
let tls: Certificate;
let service: PushService;
before(async () => {
  tls = selfSignedCertificate();
  service = await startPushService(tls);
});
after(async () => {
  await cleanUp();
  await service?.close();
  tls?.remove();
});
afterEach(stopServers);

/** `eventlog serve` on the file's database, trusting the push service, its clock `offsetMs` ahead. */
async function serve(offsetMs: number): Promise<ServerProcess> {
  const server = await ServerProcess.start(
    externalEnv(t.databaseUrl, tempDataDir('held'), {
      ALLOW_PRIVATE_WEBHOOK_URLS: '1',
      BASE_URL: BASE,
      LOG_LEVEL: 'warn',
      NODE_EXTRA_CA_CERTS: tls.certFile,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${CLOCK}`].filter(Boolean).join(' '),
      TEST_CLOCK_OFFSET_MS: String(offsetMs),
    }),
  );
  // Two minutes: on a loaded machine two servers compiling their sources at once take a while.
  await server.healthy(120_000).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${server.output}`);
  });
  return server;
}

async function notify(server: ServerProcess, org: TestOrg, project: string, title: string): Promise<void> {
  const reply = await fetch(`${server.url}/api/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project, category: 'orders', title, notify: true }),
  });
  assert.equal(reply.status, 201, await reply.text());
}

const heldRows = (org: TestOrg) =>
  t.services.sql<{ title: string; heldAt: Date; releasedAt: Date | null }[]>`
    SELECT title, held_at AS "heldAt", released_at AS "releasedAt" FROM held_notifications WHERE organization_id = ${org.id} ORDER BY held_at, id`;
const queuedPushes = async (org: TestOrg) =>
  (await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM push_jobs WHERE organization_id = ${org.id}`)[0]!.n;

describe('held notifications across a restart', () => {
  it('a server killed (SIGKILL) while holding loses nothing: after the snooze, two new processes send one summary of all of it', async () => {
    const org = await t.org();
    const project = await org.project();
    const member = await signInAs(t, org);
    const keys = browserKeys();
    const endpoint = `/push/${crypto.randomUUID()}`;
    const subscribed = await member.post(`/api/projects/${project}/push-subscriptions`, { endpoint: `${service.origin}${endpoint}`, keys: keys.keys });
    assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
    const snoozedUntil = Math.floor(Date.now() / 1000) + 3600;
    assert.equal((await put(t, member, { snoozedUntil })).status, 200);

    const first = await serve(0);
    for (let i = 1; i <= 12; i++) await notify(first, org, project, `Order ${i}`);
    await waitUntil(async () => (await heldRows(org)).length === 12, { timeoutMs: 30_000, message: 'the twelve notifications held' });
    assert.equal(await queuedPushes(org), 0, 'nothing queued for the push service while snoozed');
    assert.ok((await heldRows(org)).every((row) => row.releasedAt === null));
    process.kill(first.pid, 'SIGKILL');
    assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
    const received = () => service.received.filter((push) => push.path === endpoint);
    assert.equal(received().length, 0);

    // Two hours on, the snooze is over: both new processes look for held notifications at once.
    await Promise.all([serve(2 * HOUR), serve(2 * HOUR)]);
    await waitUntil(() => received().length > 0, { timeoutMs: 30_000, message: 'the summary at the push service' });
    // Released and sent: nothing is left that could make a second push.
    await waitUntil(async () => (await heldRows(org)).every((row) => row.releasedAt !== null) && (await queuedPushes(org)) === 0, {
      timeoutMs: 30_000,
      message: 'every held row released and every push sent',
    });

    assert.equal(received().length, 1, 'one summary');
    const summary = JSON.parse(decrypt(received()[0]!.body, keys.ecdh, keys.auth));
    assert.equal(summary.title, '12 notifications while you were away');
    assert.deepEqual(summary.body.split('\n'), [
      'Order 12',
      'Order 11',
      'Order 10',
      'Order 9',
      'Order 8',
      'Order 7',
      'Order 6',
      'Order 5',
      'Order 4',
      'Order 3',
    ]);
    assert.equal(summary.url, `${BASE}/app`);
    const rows = await heldRows(org);
    assert.equal(rows.length, 12, 'none lost');
    assert.equal(new Set(rows.map((row) => row.releasedAt!.getTime())).size, 1, 'all released by one claim');
    assert.ok(rows[0]!.releasedAt!.getTime() > snoozedUntil * 1000, 'released by the clock passing the snooze, not before');
  });
});

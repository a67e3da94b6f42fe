import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it, type TestContext } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../dashboard/signedIn.ts';
import { sleep, startWorker, waitUntil } from '../destinations/support.ts';

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: 'https://events.example.com' }, { ownDatabase: true });

/** A self-signed certificate for 127.0.0.1, made for this run. */
const tls = { key: '', cert: '' };
before(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-push-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    tls.key = fs.readFileSync(path.join(dir, 'key.pem'), 'utf8');
    tls.cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Stands in for a browser vendor's push service: HTTPS on 127.0.0.1, answers as scripted. */
async function startPushService(tc: TestContext, statuses: number[] = [201]) {
  const received: PushRequest[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tc.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received };
}

/** What a browser holds: the subscription's ECDH key pair and auth secret. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** RFC 8291 + RFC 8188 (aes128gcm), decrypted the way a browser does, with node's crypto only. */
function decrypt(body: Buffer, ecdh: crypto.ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20] as number;
  const serverPublicKey = body.subarray(21, 21 + keyIdLength);
  const records = body.subarray(21 + keyIdLength);
  assert.equal(keyIdLength, 65);
  assert.ok(records.length <= recordSize);

  const shared = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublicKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  assert.equal(padded[end], 2);
  return padded.subarray(0, end).toString('utf8');
}

/** The VAPID JWT must be signed by the key the dashboard subscribes with. */
function verifyVapid(header: string, publicKey: string, audience: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  assert.ok(match, header);
  const [, jwt, key] = match;
  assert.equal(key, publicKey);
  const [head, claims, signature] = (jwt as string).split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const verifier = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  assert.ok(
    crypto.verify('sha256', Buffer.from(`${head}.${claims}`), { key: verifier, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature as string, 'base64url')),
    'VAPID signature',
  );
  const body = JSON.parse(Buffer.from(claims as string, 'base64url').toString('utf8'));
  assert.equal(body.aud, audience);
  assert.ok(body.exp > Date.now() / 1000);
  assert.equal(body.sub, 'https://events.example.com');
}

async function subscribedUser(tc: TestContext, statuses?: number[]) {
  const org = await t.org();
  const project = await org.project();
  const service = await startPushService(tc, statuses);
  const browser = await signInAs(t, org);
  const keys = browserKeys();
  const endpoint = `${service.origin}/push/${crypto.randomUUID()}`;
  const subscribed = await browser.post(`/api/projects/${project}/push-subscriptions`, { endpoint, keys: keys.keys });
  assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
  assert.deepEqual(Object.keys(subscribed.body), ['id']);
  const worker = startWorker(t, { ca: tls.cert });
  tc.after(() => worker.stop());
  return { org, project, service, browser, keys, endpoint, subscriptionId: subscribed.body.id as string };
}

async function subscriptionCount(org: TestOrg, id: string): Promise<number> {
  return (await t.services.sql`SELECT id FROM push_subscriptions WHERE organization_id = ${org.id} AND id = ${id}`).length;
}


describe('web push', () => {
  it('serves one VAPID public key, generated once and kept', async () => {
    const org = await t.org();
    const first = await org.get('/api/push/vapid-public-key');
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['publicKey']);
    const raw = Buffer.from(first.body.publicKey, 'base64url');
    assert.equal(raw.length, 65);
    assert.equal(raw[0], 4);
    assert.deepEqual((await (await t.org()).get('/api/push/vapid-public-key')).body, first.body);
    const [row] = await t.services.sql`SELECT value FROM settings WHERE key = 'vapid_keys'`;
    assert.equal(JSON.parse(String(row?.value)).publicKey, first.body.publicKey);
  });

  it('delivers a notify event, encrypted for the subscription, with what the service worker shows', async (tc) => {
    const { org, project, service, keys } = await subscribedUser(tc);
    const event = await org.post('/api/events', {
      project,
      category: 'sales',
      title: 'New order',
      description: '3 × coffee',
      icon: '☕',
      notify: true,
    });
    assert.equal(event.status, 201);
    await waitUntil(() => service.received.length >= 1, 5000, 'the push');
    const [push] = service.received;
    assert.ok(push);
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    assert.equal(push.headers['content-type'], 'application/octet-stream');
    assert.ok(Number(push.headers.ttl) > 0);
    const publicKey = (await org.get('/api/push/vapid-public-key')).body.publicKey;
    verifyVapid(String(push.headers.authorization), publicKey, service.origin);
    const payload = JSON.parse(decrypt(push.body, keys.ecdh, keys.auth));
    assert.deepEqual(payload, {
      title: 'New order',
      body: '3 × coffee',
      icon: '☕',
      url: `https://events.example.com/app/p/${project}?event=${event.body.id}`,
    });
  });

  it('a notify:false event sends no push', async (tc) => {
    const { org, project, service } = await subscribedUser(tc);
    await org.post('/api/events', { project, category: 'c', title: 'quiet' });
    await org.post('/api/events', { project, category: 'c', title: 'loud', notify: true });
    await waitUntil(() => service.received.length >= 1, 5000, 'the push');
    await sleep(300);
    assert.equal(service.received.length, 1);
  });

  it('a subscription answered with 410 Gone is deleted', async (tc) => {
    const { org, project, service, subscriptionId } = await subscribedUser(tc, [410]);
    await org.post('/api/events', { project, category: 'c', title: 'gone', notify: true });
    await waitUntil(async () => (await subscriptionCount(org, subscriptionId)) === 0, 5000, 'the subscription to go');
    assert.equal(service.received.length, 1);
  });

  it('a subscription answered with 404 is deleted', async (tc) => {
    const { org, project, subscriptionId } = await subscribedUser(tc, [404]);
    await org.post('/api/events', { project, category: 'c', title: 'gone', notify: true });
    await waitUntil(async () => (await subscriptionCount(org, subscriptionId)) === 0, 5000, 'the subscription to go');
  });

  it('a push service error is retried and the subscription kept', async (tc) => {
    const { org, project, service, subscriptionId } = await subscribedUser(tc, [500, 201]);
    await org.post('/api/events', { project, category: 'c', title: 'retry', notify: true });
    await waitUntil(() => service.received.length >= 2, 5000, 'the retry');
    assert.equal(await subscriptionCount(org, subscriptionId), 1);
  });

  it('unsubscribing deletes the subscription', async (tc) => {
    const { org, browser, endpoint, subscriptionId } = await subscribedUser(tc);
    const reply = await browser.post('/api/push-subscriptions/delete', { endpoint });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true });
    assert.equal(await subscriptionCount(org, subscriptionId), 0);
  });

  it('subscribing again from the same browser refreshes the one subscription', async (tc) => {
    const { browser, project, endpoint, subscriptionId } = await subscribedUser(tc);
    const again = await browser.post(`/api/projects/${project}/push-subscriptions`, { endpoint, keys: browserKeys().keys });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, subscriptionId);
  });
});

describe('push subscription input', () => {
  let org: TestOrg;
  let project: string;
  let browser: Awaited<ReturnType<typeof signInAs>>;
  before(async () => {
    org = await t.org();
    project = await org.project();
    browser = await signInAs(t, org);
  });
  const valid = () => ({ endpoint: 'https://push.example.com/send/abc', keys: browserKeys().keys });

  it('needs a dashboard user: an API key gets 403 {error}', async () => {
    const reply = await org.post(`/api/projects/${project}/push-subscriptions`, valid());
    assert.equal(reply.status, 403);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('is 404 for another organization’s project', async () => {
    const stranger = await signInAs(t, await t.org());
    assert.equal((await stranger.post(`/api/projects/${project}/push-subscriptions`, valid())).status, 404);
  });

  for (const [label, body] of [
    ['an http endpoint', { ...valid(), endpoint: 'http://push.example.com/x' }],
    ['a malformed endpoint', { ...valid(), endpoint: 'not a url' }],
    ['a short p256dh', { ...valid(), keys: { p256dh: 'AAAA', auth: crypto.randomBytes(16).toString('base64url') } }],
    ['a long auth', { ...valid(), keys: { p256dh: browserKeys().keys.p256dh, auth: crypto.randomBytes(32).toString('base64url') } }],
    ['missing keys', { endpoint: 'https://push.example.com/x' }],
  ] as const) {
    it(`refuses ${label} with 400`, async () => {
      const reply = await browser.post(`/api/projects/${project}/push-subscriptions`, body);
      assert.equal(reply.status, 400);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    });
  }
});

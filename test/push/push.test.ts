import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, describe, it, type TestContext } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../dashboard/signedIn.ts';
import { startWorker } from '../destinations/support.ts';
import { type Certificate, browserKeys, decrypt, selfSignedCertificate, startPushService as startLocalPushService } from './support.ts';
import { sleep, waitUntil } from '../wait.ts';

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: 'https://events.example.com' }, { ownDatabase: true });

/** A self-signed certificate for 127.0.0.1, made for this run. */
let tls: Certificate;
before(() => {
  tls = selfSignedCertificate();
  tls.remove();
});

async function startPushService(tc: TestContext, statuses?: number[]) {
  const service = await startLocalPushService(tls, statuses);
  tc.after(() => service.close());
  return service;
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
    await waitUntil(() => service.received.length >= 1, { timeoutMs: 5000, message: 'the push' });
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
    await waitUntil(() => service.received.length >= 1, { timeoutMs: 5000, message: 'the push' });
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(service.received.length, 1);
  });

  it('a subscription answered with 410 Gone is deleted', async (tc) => {
    const { org, project, service, subscriptionId } = await subscribedUser(tc, [410]);
    await org.post('/api/events', { project, category: 'c', title: 'gone', notify: true });
    await waitUntil(async () => (await subscriptionCount(org, subscriptionId)) === 0, { timeoutMs: 5000, message: 'the subscription to go' });
    assert.equal(service.received.length, 1);
  });

  it('a subscription answered with 404 is deleted', async (tc) => {
    const { org, project, subscriptionId } = await subscribedUser(tc, [404]);
    await org.post('/api/events', { project, category: 'c', title: 'gone', notify: true });
    await waitUntil(async () => (await subscriptionCount(org, subscriptionId)) === 0, { timeoutMs: 5000, message: 'the subscription to go' });
  });

  it('a push service error is retried and the subscription kept', async (tc) => {
    const { org, project, service, subscriptionId } = await subscribedUser(tc, [500, 201]);
    await org.post('/api/events', { project, category: 'c', title: 'retry', notify: true });
    await waitUntil(() => service.received.length >= 2, { timeoutMs: 5000, message: 'the retry' });
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

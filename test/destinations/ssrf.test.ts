import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusedAddressReason } from '../../src/lib/outboundHttp/addressGuard.ts';
import { useTestApp } from '../helpers.ts';
import { startReceiver, startWorker } from './support.ts';
import { sleep, waitUntil } from '../wait.ts';

// ALLOW_PRIVATE_WEBHOOK_URLS unset: the guard is on.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '' }, { ownDatabase: true });

describe('address guard', () => {
  it('passes only public unicast addresses', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(refusedAddressReason(address), null, address);
    }
    const refused: Array<[string, RegExp]> = [
      ['127.0.0.1', /loopback/],
      ['127.255.0.9', /loopback/],
      ['::1', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['192.168.1.1', /private/],
      ['fd00::1', /private/],
      ['169.254.169.254', /link-local/],
      ['fe80::1', /link-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:10.0.0.1', /private/],
      ['::ffff:169.254.1.1', /link-local/],
      ['255.255.255.255', /broadcast/],
      ['64:ff9b::a00:1', /non-public/],
    ];
    for (const [address, reason] of refused) assert.match(refusedAddressReason(address) ?? 'allowed', reason, address);
  });

  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://[::1]/hook',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a00:1]/',
    'http://0.0.0.0/',
    'http://100.64.1.1/',
    'http://224.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
  ]) {
    it(`refuses an IP literal destination at create time: ${url}`, async () => {
      const org = await t.org();
      const project = await org.project();
      const reply = await org.post(`/api/projects/${project}/destinations`, { name: 'internal', url, format: 'json' });
      assert.equal(reply.status, 400);
      assert.match(reply.body.error, /Refused to connect/);
      assert.match(reply.body.error, /ALLOW_PRIVATE_WEBHOOK_URLS=1/);
      assert.deepEqual((await org.get(`/api/projects/${project}/destinations`)).body, []);
    });
  }

  it('a name that resolves to 127.0.0.1 is refused at connect time: nothing arrives and lastStatus says why', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const receiver = await startReceiver();
    tc.after(() => receiver.close());
    const created = await org.post(`/api/projects/${project}/destinations`, { name: 'local', url: `http://localhost:${receiver.port}/hook`, format: 'json' });
    assert.equal(created.status, 201, 'a hostname cannot be judged until it is resolved');
    const worker = startWorker(t);
    tc.after(() => worker.stop());

    const event = await org.post('/api/events', { project, category: 'c', title: 'secret', notify: true });
    assert.equal(event.status, 201);
    const log = async () => (await org.get(`/api/destinations/${created.body.id}/deliveries`)).body.deliveries;
    await waitUntil(async () => (await log())[0]?.status === 'failed', { timeoutMs: 5000, message: 'the delivery to fail' });
    const [delivery] = await log();
    assert.equal(delivery.attempts.length, 1, 'a refused address is not retried');
    assert.match(delivery.attempts[0].error, /Refused to connect to (127\.0\.0\.1|::1).*loopback/);

    const shown = (await org.get(`/api/projects/${project}/destinations`)).body[0];
    assert.equal(shown.lastStatus.ok, false);
    assert.equal(shown.lastStatus.status, null);
    assert.match(shown.lastStatus.error, /Refused to connect .*loopback.*ALLOW_PRIVATE_WEBHOOK_URLS=1/);

    const test = await org.post(`/api/destinations/${created.body.id}/test`);
    assert.equal(test.status, 200);
    assert.equal(test.body.ok, false);
    assert.equal(test.body.status, null);
    assert.match(test.body.error, /Refused to connect/);

    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(receiver.received.length, 0);
  });
});

describe('address guard on PATCH', () => {
  it('a new URL is checked as at creation, and a refused one changes nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const created = await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/in', format: 'json' });
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/api/destinations/${created.body.id}`, body, headers: { authorization: `Bearer ${org.key}` } });
    const refused = await patch({ url: 'http://169.254.169.254/latest/meta-data' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /Refused to connect/);
    const after = (await org.get(`/api/projects/${project}/destinations`)).body[0];
    assert.equal(after.url, 'https://example.com/in');
    const moved = await patch({ url: 'https://example.org/new' });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.url, 'https://example.org/new');
  });
});

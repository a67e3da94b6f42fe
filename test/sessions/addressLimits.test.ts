// Per-address limits key an IPv6 client by its /64, an IPv4-mapped IPv6 address as its IPv4
// address, and IPv4 as it is (decision 200): the sign-in throttle and browser keys' limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { clientAddressKey } from '../../src/lib/clientAddressKey.ts';
import { addUser } from '../signedIn.ts';
import { useTestApp } from '../helpers.ts';
import { sleep } from '../wait.ts';

const t = useTestApp();

describe('the address a limit counts', () => {
  it('IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64', () => {
    assert.equal(clientAddressKey('203.0.113.5'), '203.0.113.5');
    assert.equal(clientAddressKey('::ffff:203.0.113.5'), '203.0.113.5');
    assert.equal(clientAddressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64');
    assert.notEqual(clientAddressKey('2001:db8:1:3::1'), clientAddressKey('2001:db8:1:2::1'));
    assert.equal(clientAddressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(clientAddressKey('not an address'), 'not an address');
  });
});

describe('the sign-in throttle', () => {
  it('counts every address of one IPv6 /64 together, and an IPv4-mapped address as its IPv4', async () => {
    const org = await t.org();
    const { email } = await addUser(t, org);
    const wrong = (remoteAddress: string, to = email) =>
      t.app.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: to, password: 'not the password' }),
      });
    // Ten failures from ten addresses of one /64 (other emails, so the per-email count stays low).
    for (let i = 1; i <= 10; i++) assert.equal((await wrong(`2001:db8:aa:1::${i.toString(16)}`, `nobody-${i}@example.com`)).statusCode, 401);
    assert.equal((await wrong('2001:db8:aa:1:ffff::1', 'nobody-11@example.com')).statusCode, 429, 'the /64 is throttled');
    assert.equal((await wrong('2001:db8:aa:2::1', 'nobody-12@example.com')).statusCode, 401, 'the next /64 is not');

    for (let i = 1; i <= 10; i++) assert.equal((await wrong('198.51.100.77', `v4-${i}@example.com`)).statusCode, 401);
    assert.equal((await wrong('::ffff:198.51.100.77', 'v4-11@example.com')).statusCode, 429, 'the mapped form is the same client');
  });
});

describe("browser keys' per-address limit", () => {
  it('counts the events of one IPv6 /64 together: 60 a minute, then 429', async () => {
    const org = await t.org();
    const project = await org.project();
    const { key } = await createKey({ ctx: org.ctx, input: { access: 'ingest', origins: ['https://shop.example.com'] } });
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/events',
        remoteAddress,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ project, category: 'web', title: 'view' }),
      });
    // A minute boundary in the middle would start a new window: begin early in one.
    const intoMinute = Date.now() % 60_000;
    // Time itself: the rate window of the next minute.
    if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 50);
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => send(`2001:db8:bb:1:${(i + 1).toString(16)}::1`).then((r) => r.statusCode)));
    assert.deepEqual([...new Set(statuses)], [201]);
    assert.equal((await send('2001:db8:bb:1:abcd::99')).statusCode, 429, 'a fresh address of the same /64');
    assert.equal((await send('2001:db8:bb:2::1')).statusCode, 201, 'another /64');
    for (let i = 0; i < 60; i++) await send('192.0.2.10');
    assert.equal((await send('::ffff:192.0.2.10')).statusCode, 429, 'the mapped form of a limited IPv4 client');
  });
});

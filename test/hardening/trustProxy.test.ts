import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseTrustProxy } from '../../src/config.ts';
import { PASSWORD, addUser, uniqueEmail } from '../signedIn.ts';
import { useTestApp } from '../helpers.ts';

// No TRUST_PROXY: the address is the socket's (app.inject's 127.0.0.1), whatever the headers say.
const t = useTestApp({ TRUST_PROXY: '' });

describe('TRUST_PROXY', () => {
  it('is off by default, and takes a hop count or a list of proxy addresses and CIDRs', () => {
    assert.equal(parseTrustProxy(undefined), false);
    assert.equal(parseTrustProxy(''), false);
    assert.equal(parseTrustProxy('0'), false);
    assert.equal(parseTrustProxy('2'), 2);
    assert.deepEqual(parseTrustProxy('10.0.0.1, 192.168.0.0/16,::1'), ['10.0.0.1', '192.168.0.0/16', '::1']);
    for (const bad of ['true', 'nginx', '10.0.0.1/40', '1.2.3.4/8/9']) assert.throws(() => parseTrustProxy(bad), ConfigError, bad);
  });

  it('without it, X-Forwarded-For from the client changes nothing: a blocked address stays blocked', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    const signIn = (body: unknown, forwardedFor?: string) =>
      t.request({ method: 'POST', url: '/api/session', body, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
    for (let i = 0; i < 10; i++) assert.equal((await signIn({ email: uniqueEmail(), password: 'guess' })).status, 401);
    assert.equal((await signIn({ email: uniqueEmail(), password: 'guess' })).status, 429);
    for (let i = 0; i < 12; i++) {
      const reply = await signIn({ email: uniqueEmail(), password: 'guess' }, `203.0.113.${i + 1}`);
      assert.equal(reply.status, 429, `forwarded-for attempt ${i + 1}`);
    }
    const right = await signIn({ email, password: PASSWORD }, '203.0.113.200');
    assert.equal(right.status, 429);
    assert.deepEqual(Object.keys(right.body), ['error']);
  });
});

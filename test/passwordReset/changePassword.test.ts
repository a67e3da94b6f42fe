// Changing one's password while signed in (POST /api/me/password): the current password is
// proven first, the session that asked stays, every other session of the member ends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PASSWORD, signInAs } from '../signedIn.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();
const signIn = (email: string, password: string) => t.request({ method: 'POST', url: '/api/session', body: { email, password } });

describe('changing the password while signed in', () => {
  it('checks the current password, keeps this session and ends the others', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    const other = await signIn(member.email, PASSWORD);
    assert.equal(other.status, 200);
    const otherCookie = String(other.headers['set-cookie']).split(';')[0] ?? '';

    const wrong = await member.post('/api/me/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'currentPassword is not your current password');
    const short = await member.post('/api/me/password', { currentPassword: PASSWORD, newPassword: 'short' });
    assert.equal(short.status, 400);
    assert.match(short.body.error, /^newPassword must be at least 8 characters/);
    assert.equal((await signIn(member.email, PASSWORD)).status, 200, 'a refused change changes nothing');

    const done = await member.post('/api/me/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await member.get('/api/session')).status, 200, 'the session that asked stays');
    assert.equal((await t.request({ method: 'GET', url: '/api/session', headers: { cookie: otherCookie } })).status, 401, 'another device is signed out');
    assert.equal((await signIn(member.email, PASSWORD)).status, 401);
    assert.equal((await signIn(member.email, 'a brand new password')).status, 200);
  });

  it('limits guesses of the current password per member and per client address, with Retry-After', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    // From an address of its own, so the other tests of this file (127.0.0.1) are not counted.
    const change = (who: { cookie: string; csrfToken: string }, currentPassword: string, remoteAddress = '198.51.100.21') =>
      t.app.inject({
        method: 'POST',
        url: '/api/me/password',
        remoteAddress,
        headers: { 'content-type': 'application/json', cookie: who.cookie, 'x-csrf-token': who.csrfToken },
        payload: JSON.stringify({ currentPassword, newPassword: 'a brand new password' }),
      });
    for (let i = 1; i <= 10; i++) assert.equal((await change(member, `wrong guess ${i}`)).statusCode, 400);
    const limited = await change(member, PASSWORD);
    assert.equal(limited.statusCode, 429, 'even the right password waits once the member is limited');
    assert.match(limited.json().error, /^Too many wrong current passwords/);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${String(limited.headers['retry-after'])}`);
    assert.equal((await change(member, PASSWORD, '198.51.100.22')).statusCode, 429, 'the member is limited from any address');
    assert.equal((await signIn(member.email, PASSWORD)).status, 200, 'the password is unchanged');

    // Another member from the limited address is refused too: the address is counted as well.
    const other = await signInAs(t, org);
    assert.equal((await change(other, PASSWORD)).statusCode, 429, 'the address is limited for every member');
    const fromElsewhere = await change(other, PASSWORD, '198.51.100.23');
    assert.equal(fromElsewhere.statusCode, 200, fromElsewhere.body);
  });

  it('is refused to an API key', async () => {
    const org = await t.org();
    const reply = await org.post('/api/me/password', { currentPassword: 'x', newPassword: 'a brand new password' });
    assert.equal(reply.status, 403);
  });
});

// Changing one's password while signed in (POST /api/me/password): the current password is
// proven first, the session that asked stays, every other session of the member ends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PASSWORD, signInAs } from '../dashboard/signedIn.ts';
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

  it('is refused to an API key', async () => {
    const org = await t.org();
    const reply = await org.post('/api/me/password', { currentPassword: 'x', newPassword: 'a brand new password' });
    assert.equal(reply.status, 403);
  });
});

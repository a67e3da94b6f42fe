import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createLogger } from '../../src/logger.ts';
import { useTestApp } from '../helpers.ts';
import { PASSWORD, sessionCookieOf, signInAs, uniqueEmail } from '../signedIn.ts';
import { accept, invite, joined, roleOf, tokenOf } from './support.ts';

const t = useTestApp({ BASE_URL: 'https://events.example.test' });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('invitations', () => {
  it('answers 201 {id, email, role, url, expiresAt}: a dashboard link valid 7 days', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const before = Date.now();
    const reply = await invite(owner, `  ${email} `, 'member');
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.deepEqual(Object.keys(reply.body).sort(), ['email', 'emailed', 'expiresAt', 'id', 'role', 'url']);
    assert.equal(reply.body.email, email);
    assert.equal(reply.body.role, 'member');
    assert.match(reply.body.url, /^https:\/\/events\.example\.test\/app\/accept\/[A-Za-z0-9_-]{43}$/);
    assert.match(reply.body.expiresAt, ISO);
    const lifetime = Date.parse(reply.body.expiresAt) - before;
    assert.ok(Math.abs(lifetime - 7 * 24 * 3600_000) < 60_000, `valid 7 days, got ${lifetime} ms`);
    assert.equal(reply.headers['cache-control'], 'no-store');
  });

  it('stores only a hash of the token', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const reply = await invite(owner);
    const token = tokenOf(reply.body.url);
    const rows = await t.services.sql`SELECT * FROM invitations WHERE organization_id = ${org.id}`;
    assert.equal(rows.length, 1);
    assert.equal(JSON.stringify(rows).includes(token), false);
    assert.equal(rows[0]!.token_hash.toString('base64url').includes(token), false);
  });

  it('accepting sets the password and signs the new member in, as POST /api/session does', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const invitation = await invite(owner, email, 'member');
    const reply = await accept(t, tokenOf(invitation.body.url), 'a new member password');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(Object.keys(reply.body).sort(), ['csrfToken', 'organization', 'user']);
    assert.deepEqual(Object.keys(reply.body.user).sort(), ['email', 'id'], 'the shape of POST /api/session');
    assert.equal(reply.body.user.email, email);
    assert.equal(reply.body.organization.id, org.id);
    const cookie = sessionCookieOf(reply);
    assert.ok(cookie, 'a session cookie is set');
    assert.match(String([reply.headers['set-cookie']].flat()[0]), /HttpOnly/i);
    const session = await t.request({ method: 'GET', url: '/api/session', headers: { cookie } });
    assert.equal(session.status, 200);
    assert.equal(session.body.user.email, email);
    assert.equal((await t.request({ method: 'GET', url: '/api/organization', headers: { cookie } })).body.role, 'member');

    const signIn = await t.request({ method: 'POST', url: '/api/session', body: { email, password: 'a new member password' } });
    assert.equal(signIn.status, 200, 'the chosen password signs in');
    assert.equal(signIn.body.user.id, reply.body.user.id);
  });

  it('gives the invited role: an invited owner is an owner', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const other = await joined(t, owner, 'owner');
    assert.equal(await roleOf(other), 'owner');
    assert.equal((await other.get('/api/members')).status, 200);
  });

  it('works once: a used token is 400', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const token = tokenOf((await invite(owner)).body.url);
    assert.equal((await accept(t, token)).status, 200);
    const again = await accept(t, token);
    assert.equal(again.status, 400);
    assert.deepEqual(Object.keys(again.body), ['error']);
  });

  it('lets exactly one of two simultaneous accepts through', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const token = tokenOf((await invite(owner)).body.url);
    const replies = await Promise.all([accept(t, token), accept(t, token), accept(t, token)]);
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 400, 400]);
    assert.equal((await owner.get('/api/members')).body.length, 2);
  });

  it('answers 400 to an unknown, malformed or expired token', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const invitation = await invite(owner);
    const token = tokenOf(invitation.body.url);
    for (const bad of ['', 'nope', `${token}x`, token.slice(0, -1), 'A'.repeat(43)]) {
      const reply = await accept(t, bad);
      assert.equal(reply.status, 400, `token ${JSON.stringify(bad)}`);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    await t.services.sql`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE organization_id = ${org.id}`;
    assert.equal((await accept(t, token)).status, 400, 'expired');
    for (const body of [{}, { token }, { password: PASSWORD }, { token: 1, password: PASSWORD }]) {
      const reply = await t.request({ method: 'POST', url: '/api/invitations/accept', body });
      assert.equal(reply.status, 400, JSON.stringify(body));
    }
    assert.equal((await owner.get('/api/members')).body.length, 1, 'nobody joined');
  });

  it('leaves the token unused when the password is too short', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const token = tokenOf((await invite(owner)).body.url);
    const short = await accept(t, token, 'short');
    assert.equal(short.status, 400);
    assert.match(short.body.error, /password/);
    assert.equal((await accept(t, token)).status, 200, 'the same link still works');
  });

  it('answers 409 to inviting an email that is already a member, in any case', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    for (const email of [owner.email, member.email, member.email.toUpperCase()]) {
      const reply = await invite(owner, email);
      assert.equal(reply.status, 409, email);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
  });

  it('invites an email with an account elsewhere like any other; accepting it is 409 and leaves the token unused', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const elsewhere = await signInAs(t, await t.org());
    const invitation = await invite(owner, elsewhere.email);
    assert.equal(invitation.status, 201, 'the inviter learns nothing');
    const token = tokenOf(invitation.body.url);
    const reply = await accept(t, token);
    assert.equal(reply.status, 409);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    assert.equal((await elsewhere.get('/api/session')).status, 200, 'the other account is untouched');
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM invitations WHERE organization_id = ${org.id}`;
    assert.equal(row!.n, 1, 'the token is unused');
    // Once the other account is gone, the same link works.
    await t.services.sql`DELETE FROM user_emails WHERE email = lower(${elsewhere.email})`;
    await t.services.sql`DELETE FROM users WHERE id = ${elsewhere.userId}`;
    assert.equal((await accept(t, token)).status, 200);
  });

  it('replaces the pending invitation of an email: the older link stops working', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const first = await invite(owner, email, 'owner');
    const second = await invite(owner, email.toUpperCase(), 'member');
    assert.equal(second.status, 201);
    assert.notEqual(second.body.url, first.body.url);
    assert.equal((await accept(t, tokenOf(first.body.url))).status, 400);
    const accepted = await accept(t, tokenOf(second.body.url));
    assert.equal(accepted.status, 200);
    const cookie = String([accepted.headers['set-cookie']].flat()[0]).split(';')[0]!;
    assert.equal((await t.request({ method: 'GET', url: '/api/organization', headers: { cookie } })).body.role, 'member');
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM credentials WHERE kind = 'invitation' AND organization_id = ${org.id}`;
    assert.equal(row!.n, 0, 'no routing row is left behind');
  });

  it('validates the invitation body with 400 and changes nothing', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    for (const body of [
      {},
      { email: 'x@example.com' },
      { role: 'member' },
      { email: 'not an email', role: 'member' },
      { email: 'x@example.com', role: 'admin' },
    ]) {
      const reply = await owner.post('/api/invitations', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
    }
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM invitations WHERE organization_id = ${org.id}`;
    assert.equal(row!.n, 0);
  });

  it('needs the CSRF token to invite', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const reply = await owner.post('/api/invitations', { email: uniqueEmail(), role: 'member' }, { csrf: null });
    assert.equal(reply.status, 403);
  });

  it('never writes the token of an accept page to the log', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // The application's logger, with its serializers, writing into `sink`.
    const appLogger = createLogger('info') as unknown as Record<symbol, pino.LoggerOptions['serializers']>;
    const logger = pino({ level: 'info', serializers: appLogger[pino.symbols.serializersSym] }, sink);
    const token = 'x'.repeat(43);
    logger.info({ req: { method: 'GET', url: `/app/accept/${token}?a=1`, id: 'req-1' } }, 'incoming request');
    assert.equal(lines.join('').includes(token), false, lines.join(''));
    assert.match(lines.join(''), /\/app\/accept\/\[redacted\]/);
  });
});

// Password reset and invitations by mail (extensions.md, "Email"), against a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createLogger } from '../../src/logger.ts';
import { PASSWORD, addUser, signInAs, uniqueEmail } from '../signedIn.ts';
import { useTestApp } from '../helpers.ts';
import { accept, invite, tokenOf } from '../members/support.ts';
import { type SmtpTestServer, startSmtpServer } from './support.ts';
import { sleep } from '../wait.ts';

// Started before the app, whose settings name it.
const smtp: SmtpTestServer = await startSmtpServer();
const env: NodeJS.ProcessEnv = { BASE_URL: 'https://events.example.test', SMTP_FROM: 'accounts@example.test', TRUST_PROXY: '1', SMTP_URL: smtp.url };
after(() => smtp.close());
// The mail queue (which sends the reset links) takes every organization's mail: a database of the file's own.
const t = useTestApp(env, { ownDatabase: true });

let client = 0;
/** A client address of its own per test, so the per-address throttle of one test leaves the others alone. */
const fromAddress = () => ({ 'x-forwarded-for': `203.0.113.${++client}` });

const requestReset = (email: string, headers: Record<string, string> = fromAddress()) =>
  t.request({ method: 'POST', url: '/api/password-reset', body: { email }, headers });
const confirm = (token: string, password: string, headers: Record<string, string> = fromAddress()) =>
  t.request({ method: 'POST', url: '/api/password-reset/confirm', body: { token, password }, headers });
const signIn = (email: string, password: string) => t.request({ method: 'POST', url: '/api/session', body: { email, password } });

async function resetLinkOf(email: string, count = 1): Promise<string> {
  const mails = await smtp.waitForMailTo(email, count);
  const text = mails[count - 1]?.parsed.text ?? '';
  const match = /https:\/\/events\.example\.test\/app\/reset\/[A-Za-z0-9_-]{43}/.exec(text);
  assert.ok(match, text);
  return match[0];
}

describe('password reset', () => {
  before(() => t.services.mailQueue.start());
  it('mails a link to BASE_URL/app/reset/<token>; confirming sets the password and ends every session', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    const reply = await requestReset(member.email);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { ok: true });
    const link = await resetLinkOf(member.email);
    const [mail] = smtp.to(member.email);
    assert.equal(mail?.parsed.subject, 'Reset your Eventlog password');
    assert.equal(mail?.parsed.from?.value[0]?.address, 'accounts@example.test');
    assert.ok(String(mail?.parsed.html).includes(`href="${link}"`));

    assert.equal((await member.get('/api/session')).status, 200);
    const preview = (token: string) => t.request({ method: 'POST', url: '/api/password-reset/preview', body: { token } });
    const named = await preview(tokenOf(link));
    assert.equal(named.status, 200);
    assert.deepEqual(named.body, { email: member.email }, 'the reset page names the account');
    const done = await confirm(tokenOf(link), 'a brand new password');
    const used = await preview(tokenOf(link));
    assert.equal(used.status, 400, 'a used link is named as such before any form');
    assert.match(used.body.error, /already used/);
    assert.equal(done.status, 200);
    assert.deepEqual(done.body, { ok: true });
    assert.equal((await member.get('/api/session')).status, 401, 'the old session ended');
    assert.equal((await signIn(member.email, PASSWORD)).status, 401, 'the old password no longer works');
    assert.equal((await signIn(member.email, 'a brand new password')).status, 200);
    assert.equal((await confirm(tokenOf(link), 'yet another password')).status, 400, 'a used link is refused');
    const audit = await org.get('/api/audit');
    const resets = audit.body.entries.filter((entry: { action: string }) => entry.action === 'password.reset');
    assert.equal(resets.length, 1, 'the audit log records the reset once');
    assert.deepEqual([resets[0].actor.id, resets[0].target], [member.userId, { type: 'member', id: member.userId }]);
  });

  it('answers 200 {"ok":true} for an unknown email and sends nothing', async () => {
    const email = uniqueEmail();
    const reply = await requestReset(email);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true });
    // Negative check: nothing may be sent in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(smtp.to(email).length, 0);
  });

  it('a newer link replaces the older one', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    await requestReset(email);
    const first = await resetLinkOf(email, 1);
    await requestReset(email);
    const second = await resetLinkOf(email, 2);
    assert.notEqual(first, second);
    assert.equal((await confirm(tokenOf(first), 'another password')).status, 400);
    assert.equal((await confirm(tokenOf(second), 'another password')).status, 200);
  });

  it('an expired link is refused (1 hour)', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    await requestReset(email);
    const link = await resetLinkOf(email);
    const [row] = await t.services.sql<{ lifetime: number }[]>`
      SELECT extract(epoch FROM expires_at - created_at)::int AS lifetime FROM password_resets WHERE organization_id = ${org.id}`;
    assert.equal(row?.lifetime, 3600);
    await t.services.sql`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE organization_id = ${org.id}`;
    assert.equal((await confirm(tokenOf(link), 'another password')).status, 400);
    assert.equal((await signIn(email, PASSWORD)).status, 200, 'the password is unchanged');
  });

  it('the token is stored only as a hash', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    await requestReset(email);
    const token = tokenOf(await resetLinkOf(email));
    const rows = await t.services.sql<{ tokenHash: Buffer }[]>`SELECT token_hash AS "tokenHash" FROM password_resets WHERE organization_id = ${org.id}`;
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]?.tokenHash.toString('base64url'), token);
    assert.equal(rows[0]?.tokenHash.length, 32);
  });

  it('400 for a short password (the link stays usable), an unknown or malformed token, and bad bodies', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    await requestReset(email);
    const token = tokenOf(await resetLinkOf(email));
    const short = await confirm(token, 'short');
    assert.equal(short.status, 400);
    assert.match(short.body.error, /8 characters/);
    assert.equal((await confirm('x'.repeat(43), 'long enough password')).status, 400);
    assert.equal((await confirm('not a token', 'long enough password')).status, 400);
    assert.equal((await t.request({ method: 'POST', url: '/api/password-reset', body: {} })).status, 400);
    assert.equal((await t.request({ method: 'POST', url: '/api/password-reset/confirm', body: { token } })).status, 400);
    assert.equal((await confirm(token, 'long enough password')).status, 200);
  });

  it('is throttled per client address like sign-in (429)', async () => {
    const headers = fromAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await requestReset(uniqueEmail(), headers)).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200));
    assert.equal(statuses[11], 429);
    const other = await requestReset(uniqueEmail());
    assert.equal(other.status, 200, 'another address is not affected');

    const confirmHeaders = fromAddress();
    const failures: number[] = [];
    for (let i = 0; i < 12; i++) failures.push((await confirm('y'.repeat(43), 'long enough password', confirmHeaders)).status);
    assert.equal(failures[0], 400);
    assert.equal(failures[11], 429);
  });

  it('the reset page URL never shows its token in the server log', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const appLogger = createLogger('info') as unknown as Record<symbol, pino.LoggerOptions['serializers']>;
    const logger = pino({ level: 'info', serializers: appLogger[pino.symbols.serializersSym] }, sink);
    const token = 'r'.repeat(43);
    logger.info({ req: { method: 'GET', url: `/app/reset/${token}`, id: 'req-1' } }, 'incoming request');
    assert.equal(lines.join('').includes(token), false, lines.join(''));
    assert.match(lines.join(''), /\/app\/reset\/\[redacted\]/);
  });
});

describe('invitations by mail', () => {
  before(() => t.services.mailQueue.start());
  it('the invitation is mailed with its link; emailed: true; the link accepts', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const reply = await invite(owner, email, 'member');
    assert.equal(reply.status, 201);
    assert.equal(reply.body.emailed, true);
    const [mail] = await smtp.waitForMailTo(email);
    assert.match(mail?.parsed.subject ?? '', /invited/);
    assert.ok(mail?.parsed.text?.includes(reply.body.url));
    assert.ok(String(mail?.parsed.html).includes(`href="${reply.body.url}"`));
    assert.equal((await accept(t, tokenOf(reply.body.url))).status, 200);
  });

  it('emailed: false when the SMTP server refuses it; the link still works', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    smtp.answers = [{ code: 550 }];
    smtp.offered = 0;
    try {
      const reply = await invite(owner, uniqueEmail(), 'member');
      assert.equal(reply.status, 201);
      assert.equal(reply.body.emailed, false);
      assert.equal((await accept(t, tokenOf(reply.body.url))).status, 200);
    } finally {
      smtp.answers = [250];
    }
  });
});

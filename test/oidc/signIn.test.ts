import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createLogger } from '../../src/logger.ts';
import { after, before, describe, it } from 'node:test';
import { inviteMember } from '../../src/features/members/inviteMember.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { type Reply, useTestApp } from '../helpers.ts';
import { sealChoice } from '../../src/features/oidc/choiceCookie.ts';
import { CLIENT, type Person, signInAtProvider, startProvider } from './provider.ts';

/** extensions.md, "Sign-in with OpenID Connect", against a real provider (oidc-provider) on loopback. */
const BASE_URL = 'http://eventlog.test';
// The issuer's address must be known before the app reads its settings: a port of this process's own.
const PORT = 20000 + (process.pid % 20000);
const env: Record<string, string> = {
  BASE_URL,
  OIDC_ISSUER: `http://127.0.0.1:${PORT}`,
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_NAME: 'Test IdP',
  OIDC_PASSWORD_SIGNIN: 'off',
};
let provider: Awaited<ReturnType<typeof startProvider>>;
before(async () => {
  provider = await startProvider(`${BASE_URL}/api/oidc/callback`, PORT);
});
after(() => provider.close());
const t = useTestApp(env);

const cookieOf = (reply: Reply, name: string) =>
  [reply.headers['set-cookie'] ?? []]
    .flat()
    .map(String)
    .find((line) => line.startsWith(`${name}=`) && !line.startsWith(`${name}=;`))
    ?.split(';')[0];

let people = 0;
function person(email: string, verified = true): string {
  const id = `person-${++people}`;
  provider.people.set(id, { email, verified } satisfies Person);
  return id;
}

/** Start, sign in at the provider as `accountId`, and hand the callback URL (and the attempt cookie) back. */
async function throughProvider(accountId: string): Promise<{ callback: string; attempt: string }> {
  const start = await t.request({ method: 'GET', url: '/api/oidc/start' });
  assert.equal(start.status, 302);
  const location = new URL(String(start.headers.location));
  assert.equal(location.origin, provider.issuer);
  for (const [name, value] of [
    ['scope', 'openid email profile'],
    ['code_challenge_method', 'S256'],
    ['response_type', 'code'],
  ] as const)
    assert.equal(location.searchParams.get(name), value);
  for (const name of ['state', 'nonce', 'code_challenge']) assert.ok(location.searchParams.get(name), name);
  const attempt = cookieOf(start, 'eventlog_oidc');
  assert.ok(attempt, 'the attempt cookie');
  const back = await signInAtProvider(location.href, accountId);
  assert.ok(back.startsWith(`${BASE_URL}/api/oidc/callback?`), back);
  return { callback: back.slice(BASE_URL.length), attempt };
}

const callback = (url: string, attempt: string) => t.request({ method: 'GET', url, headers: { cookie: attempt } });

describe('sign-in with OpenID Connect', () => {
  it('signs a member in by verified email, any case, with the session cookie, and records it', async () => {
    const org = await t.org();
    const email = `Member-${crypto.randomUUID()}@Example.com`;
    const user = await createAccount({ ctx: t.operator, input: { organizationId: org.id, email: email.toLowerCase(), password: 'a password of some length' } });
    const { callback: url, attempt } = await throughProvider(person(email.toUpperCase()));
    const reply = await callback(url, attempt);
    assert.equal(reply.status, 302, JSON.stringify(reply.body));
    assert.equal(reply.headers.location, '/app/');
    const session = cookieOf(reply, 'eventlog_session');
    assert.ok(session);
    const described = await t.request({ method: 'GET', url: '/api/session', headers: { cookie: session } });
    assert.equal(described.status, 200);
    assert.equal(described.body.user.id, user.id);
    const audit = await org.get('/api/audit?action=session.signin');
    assert.equal(audit.body.entries[0].actor.id, user.id);
  });

  it('refuses a tampered state and a replayed code, signing no one in', async () => {
    const org = await t.org();
    const email = `member-${crypto.randomUUID()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: 'a password of some length' } });
    const first = await throughProvider(person(email));
    const tampered = first.callback.replace(/state=([^&]+)/, (_, state: string) => `state=${state.slice(0, -2)}xx`);
    const refused = await callback(tampered, first.attempt);
    assert.equal(refused.status, 403);
    assert.equal(cookieOf(refused, 'eventlog_session'), undefined);

    const second = await throughProvider(person(email));
    assert.equal((await callback(second.callback, second.attempt)).status, 302);
    const replayed = await callback(second.callback, second.attempt);
    assert.equal(replayed.status, 403, 'the same code again');
    assert.equal(cookieOf(replayed, 'eventlog_session'), undefined);
    // No attempt cookie at all: refused.
    assert.equal((await t.request({ method: 'GET', url: second.callback })).status, 403);
  });

  it('refuses an unverified email and an unknown person with 403, creating nothing', async () => {
    const org = await t.org();
    const email = `member-${crypto.randomUUID()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: 'a password of some length' } });
    const unverified = await throughProvider(person(email, false));
    const refused = await callback(unverified.callback, unverified.attempt);
    assert.equal(refused.status, 403);
    assert.equal(cookieOf(refused, 'eventlog_session'), undefined);

    const stranger = `stranger-${crypto.randomUUID()}@example.com`;
    const unknown = await throughProvider(person(stranger));
    assert.equal((await callback(unknown.callback, unknown.attempt)).status, 403);
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM user_emails WHERE email = ${stranger}`;
    assert.equal(row!.n, 0);
  });

  it('sends a refused browser on to the sign-in page with the reason, still 403, and API clients get {error}', async () => {
    const stranger = `stranger-${crypto.randomUUID()}@example.com`;
    const asBrowser = await throughProvider(person(stranger));
    const page = await t.request({ method: 'GET', url: asBrowser.callback, headers: { cookie: asBrowser.attempt, accept: 'text/html,application/xhtml+xml' } });
    assert.equal(page.status, 403);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const target = /content="0;url=([^"]+)"/.exec(String(page.body))?.[1] ?? '';
    assert.match(target, /^\/app\/\?signin_error=This%20account%20is%20not%20a%20member/);
    assert.match(String(page.body), /<a href="\/app\/\?signin_error=[^"]+">Back to the sign-in page<\/a>/);

    const asClient = await throughProvider(person(stranger));
    const json = await callback(asClient.callback, asClient.attempt);
    assert.equal(json.status, 403);
    assert.match(json.body.error, /not a member/);
  });

  it('accepts a pending invitation for the verified email, with its role', async () => {
    const org = await t.org();
    const email = `invited-${crypto.randomUUID()}@example.com`;
    await inviteMember({ ctx: org.ctx, input: { email, role: 'member' } });
    const { callback: url, attempt } = await throughProvider(person(email));
    const reply = await callback(url, attempt);
    assert.equal(reply.status, 302, JSON.stringify(reply.body));
    const session = cookieOf(reply, 'eventlog_session')!;
    const described = await t.request({ method: 'GET', url: '/api/session', headers: { cookie: session } });
    assert.equal(described.body.user.email, email);
    assert.equal(described.body.organization.id, org.id);
    const members = await t.services.sql`SELECT role FROM users WHERE organization_id = ${org.id} AND email = ${email}`;
    assert.deepEqual(
      members.map((m) => m.role),
      ['member'],
    );
  });

  it('never picks among invitations from several organizations: the person chooses one, which joins that one only', async () => {
    const [first, second] = [await t.org(), await t.org()];
    const email = `invited-${crypto.randomUUID()}@example.com`;
    await inviteMember({ ctx: first.ctx, input: { email, role: 'member' } });
    // The later invitation used to win: another organization could capture the invitee.
    const chosen = await inviteMember({ ctx: second.ctx, input: { email, role: 'owner' } });
    const { callback: url, attempt } = await throughProvider(person(email));
    const landed = await callback(url, attempt);
    assert.equal(landed.status, 302, JSON.stringify(landed.body));
    assert.equal(landed.headers.location, '/app/signin/choose');
    assert.equal(cookieOf(landed, 'eventlog_session'), undefined, 'nobody is signed in yet');
    const choiceLine =
      [landed.headers['set-cookie'] ?? []]
        .flat()
        .map(String)
        .find((line) => line.startsWith('eventlog_oidc_choice=')) ?? '';
    assert.match(choiceLine, /HttpOnly/i);
    assert.match(choiceLine, /Max-Age=600/);
    const choice = cookieOf(landed, 'eventlog_oidc_choice')!;
    assert.equal((await t.services.sql`SELECT 1 FROM user_emails WHERE email = ${email}`).length, 0, 'no account was made');

    const listed = await t.request({ method: 'GET', url: '/api/oidc/choices', headers: { cookie: choice } });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.email, email);
    const names = new Map(
      (await t.services.sql<{ id: string; name: string }[]>`SELECT id, name FROM organizations WHERE id IN ${t.services.sql([first.id, second.id])}`).map(
        (o) => [o.id, o.name],
      ),
    );
    assert.deepEqual(
      listed.body.invitations.map((i: { organization: { id: string; name: string }; role: string }) => [i.organization.id, i.organization.name, i.role]).sort(),
      [
        [first.id, names.get(first.id), 'member'],
        [second.id, names.get(second.id), 'owner'],
      ].sort(),
    );

    // Another email's invitation, or one that does not exist, is not among the choices: 404.
    const elsewhere = await inviteMember({ ctx: first.ctx, input: { email: `other-${crypto.randomUUID()}@example.com`, role: 'owner' } });
    for (const id of [elsewhere.id, 'no-such-invitation']) {
      const refused = await t.request({ method: 'POST', url: `/api/oidc/choices/${id}/accept`, headers: { cookie: choice } });
      assert.equal(refused.status, 404, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'Invitation not found');
    }

    const joined = await t.request({ method: 'POST', url: `/api/oidc/choices/${chosen.id}/accept`, headers: { cookie: choice } });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    const described = await t.request({ method: 'GET', url: '/api/session', headers: { cookie: cookieOf(joined, 'eventlog_session')! } });
    assert.equal(described.body.organization.id, second.id);
    const accounts = await t.services.sql`SELECT organization_id, role FROM users WHERE lower(email) = lower(${email})`;
    assert.deepEqual(
      accounts.map((a) => [a.organization_id, a.role]),
      [[second.id, 'owner']],
      'joined the chosen organization only, with its role',
    );
    const pending = await t.services.sql`SELECT organization_id FROM invitations WHERE lower(email) = lower(${email})`;
    assert.deepEqual(
      pending.map((p) => p.organization_id),
      [first.id],
      "the other organization's invitation stays pending",
    );
  });

  it('refuses a missing, forged or expired choice with 401, and a used one', async () => {
    const [first, second] = [await t.org(), await t.org()];
    const email = `invited-${crypto.randomUUID()}@example.com`;
    const mine = await inviteMember({ ctx: first.ctx, input: { email, role: 'member' } });
    await inviteMember({ ctx: second.ctx, input: { email, role: 'member' } });
    const expired = `eventlog_oidc_choice=${await sealChoice(t.services.sql, email, Date.now() - 601_000)}`;
    const real = `eventlog_oidc_choice=${await sealChoice(t.services.sql, email)}`;
    const forged = real.replace(/\.([^.]+)$/, (_, sealed: string) => `.${sealed.slice(0, -2)}AA`);
    // A sealed sign-in attempt is not a choice either.
    const start = await t.request({ method: 'GET', url: '/api/oidc/start' });
    const attempt = cookieOf(start, 'eventlog_oidc')!.replace('eventlog_oidc=', 'eventlog_oidc_choice=');
    for (const cookie of [undefined, 'eventlog_oidc_choice=garbage', forged, expired, attempt]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const listed = await t.request({ method: 'GET', url: '/api/oidc/choices', headers });
      assert.equal(listed.status, 401, `${cookie}: ${JSON.stringify(listed.body)}`);
      assert.match(listed.body.error, /unknown or has expired/);
      assert.equal((await t.request({ method: 'POST', url: `/api/oidc/choices/${mine.id}/accept`, headers })).status, 401);
    }
    assert.equal((await t.services.sql`SELECT 1 FROM invitations WHERE lower(email) = lower(${email})`).length, 2, 'nothing changed');
    assert.equal((await t.request({ method: 'POST', url: `/api/oidc/choices/${mine.id}/accept`, headers: { cookie: real } })).status, 200);
    assert.equal(
      (await t.request({ method: 'POST', url: `/api/oidc/choices/${mine.id}/accept`, headers: { cookie: real } })).status,
      404,
      'a used invitation is no longer a choice',
    );
  });

  it('offers the button and turns password sign-in off', async () => {
    const setup = await t.request({ method: 'GET', url: '/api/setup' });
    assert.deepEqual(setup.body.signIn, { password: false, oidc: 'Test IdP' });
    const org = await t.org();
    const email = `member-${crypto.randomUUID()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: 'a password of some length' } });
    const reply = await t.request({ method: 'POST', url: '/api/session', body: { email, password: 'a password of some length' } });
    assert.equal(reply.status, 403);
  });

  it('the callback URL never shows its code or state in the server log', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const appLogger = createLogger('info') as unknown as Record<symbol, pino.LoggerOptions['serializers']>;
    const logger = pino({ level: 'info', serializers: appLogger[pino.symbols.serializersSym] }, sink);
    logger.info({ req: { method: 'GET', url: '/api/oidc/callback?code=secret-code-123&state=secret-state-456', id: 'req-1' } }, 'incoming request');
    const text = lines.join('');
    assert.equal(text.includes('secret-code-123') || text.includes('secret-state-456'), false, text);
    assert.match(text, /\/api\/oidc\/callback\?\[redacted\]/);
  });
});

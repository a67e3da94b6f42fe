import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { PASSWORD, addUser, browserFor, sessionCookieOf, signInAs, uniqueEmail } from '../signedIn.ts';

// The tests stand in for clients behind a proxy on loopback, each with its own address.
const t = useTestApp({ TRUST_PROXY: '127.0.0.1' });

/** Each test signs in from its own address, so the per-address throttle of one never touches another. */
let lastAddress = 0;
const nextAddress = () => `198.51.100.${++lastAddress}`;

function signIn(body: unknown, address = nextAddress()) {
  return t.request({ method: 'POST', url: '/api/session', body, headers: { 'x-forwarded-for': address } });
}

async function expireSession(cookie: string, column: 'expires_at' | 'last_seen_at', ago: string) {
  const { hashSessionToken } = await import('../../src/features/sessions/sessionToken.ts');
  const idHash = hashSessionToken(cookie.split('=')[1]!);
  await t.services.sql`
    UPDATE sessions SET ${t.services.sql(column)} = now() - ${ago}::interval
    WHERE organization_id = (SELECT organization_id FROM credentials WHERE hash = ${idHash}) AND id_hash = ${idHash}`;
}

describe('first-run setup on an installation that has users', () => {
  it('reports that no setup is needed and refuses a second owner with 409', async () => {
    const org = await t.org();
    await addUser(t, org);
    const status = await t.request({ method: 'GET', url: '/api/setup' });
    assert.equal(status.status, 200);
    assert.deepEqual(status.body, { needed: false, signIn: { password: true, oidc: null } });

    const email = uniqueEmail();
    const setup = await t.request({
      method: 'POST',
      url: '/api/setup',
      body: { organizationName: 'Intruder', email, password: 'long enough password' },
    });
    assert.equal(setup.status, 409);
    assert.deepEqual(Object.keys(setup.body), ['error']);
    assert.equal(sessionCookieOf(setup), undefined);
    // Every user's email has its row in user_emails, across all organizations.
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM user_emails WHERE email = lower(${email})`;
    assert.equal(row!.n, 0);
  });

  it('validates the setup body', async () => {
    const reply = await t.request({ method: 'POST', url: '/api/setup', body: { organizationName: 'X', email: 'a@b.c' } });
    assert.equal(reply.status, 400);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });
});

describe('sign-in', () => {
  it('signs in with the right password and sets a hardened session cookie', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    const user = await addUser(t, org, email);
    const reply = await signIn({ email: email.toUpperCase(), password: PASSWORD });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      user: { id: user.id, email },
      organization: { id: org.id, name: reply.body.organization.name },
      csrfToken: reply.body.csrfToken,
    });
    assert.match(reply.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(reply.headers['cache-control'], 'no-store');

    const setCookie = String(reply.headers['set-cookie']);
    assert.match(setCookie, /^eventlog_session=[A-Za-z0-9_-]{43};/);
    assert.match(setCookie, /; HttpOnly/i);
    assert.match(setCookie, /; SameSite=Lax/i);
    assert.match(setCookie, /; Path=\/(;|$)/);
    assert.match(setCookie, /; Max-Age=2592000/);
    assert.doesNotMatch(setCookie, /Secure/i);
  });

  it('marks the cookie Secure when the request arrived over https', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    const reply = await t.request({
      method: 'POST',
      url: '/api/session',
      body: { email, password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': nextAddress() },
    });
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['set-cookie']), /; Secure/);
  });

  it('stores only the hash of the session token', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const token = browser.cookie.split('=')[1]!;
    const rows = await t.services.sql<{ idHash: Buffer; lifetime: number }[]>`
      SELECT id_hash AS "idHash", extract(epoch FROM expires_at - created_at)::int AS lifetime
      FROM sessions WHERE organization_id = ${org.id} AND user_id = ${browser.userId}`;
    assert.equal(rows.length, 1);
    const idHash = crypto.createHash('sha256').update(token).digest();
    assert.deepEqual(rows[0]!.idHash, idHash);
    assert.equal(rows[0]!.lifetime, 30 * 24 * 3600);
    const [found] = await t.services.sql`
      SELECT 1 FROM sessions
      WHERE organization_id = ${org.id} AND (id_hash = convert_to(${token}, 'UTF8') OR csrf_token = ${token})`;
    assert.equal(found, undefined);
    // The routing row holds the same hash, never the token.
    const routes = await t.services.sql`SELECT kind, organization_id AS "organizationId" FROM credentials WHERE hash = ${idHash}`;
    assert.deepEqual([...routes], [{ kind: 'session', organizationId: org.id }]);
    assert.equal((await t.services.sql`SELECT 1 FROM credentials WHERE hash = convert_to(${token}, 'UTF8')`).length, 0);
  });

  it('answers a wrong password and an unknown email alike, with 401', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    const wrongPassword = await signIn({ email, password: 'not the password' });
    const unknownEmail = await signIn({ email: uniqueEmail(), password: 'not the password' });
    for (const reply of [wrongPassword, unknownEmail]) {
      assert.equal(reply.status, 401);
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.equal(sessionCookieOf(reply), undefined);
    }
    assert.equal(wrongPassword.body.error, unknownEmail.body.error);
  });

  it('spends about as long on an unknown email as on a wrong password', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    await signIn({ email: uniqueEmail(), password: 'warm up the dummy hash' });
    const time = async (body: unknown) => {
      const started = process.hrtime.bigint();
      await signIn(body);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time({ email, password: 'wrong password' }));
      unknown.push(await time({ email: uniqueEmail(), password: 'wrong password' }));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    // Both verify one scrypt hash; without the dummy hash the unknown email would be ~100x faster.
    assert.ok(median(unknown) > median(known) / 3, `unknown ${median(unknown)} ms vs known ${median(known)} ms`);
  });

  it('blocks an email after 10 failures in 15 minutes, even with the right password', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    for (let i = 0; i < 10; i++) {
      const reply = await signIn({ email, password: `wrong ${i}` });
      assert.equal(reply.status, 401, `attempt ${i + 1}`);
    }
    const blocked = await signIn({ email, password: PASSWORD });
    assert.equal(blocked.status, 429);
    assert.deepEqual(Object.keys(blocked.body), ['error']);
    assert.equal(sessionCookieOf(blocked), undefined);
  });

  it('blocks an address after 10 failures, whatever the email', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    const address = nextAddress();
    const attempts = await Promise.all(Array.from({ length: 12 }, () => signIn({ email: uniqueEmail(), password: 'guess' }, address)));
    // Parallel guesses cannot slip past the limit while their hashes are computed.
    assert.equal(attempts.filter((r) => r.status === 401).length, 10);
    assert.equal(attempts.filter((r) => r.status === 429).length, 2);
    assert.equal((await signIn({ email, password: PASSWORD }, address)).status, 429);
    assert.equal((await signIn({ email, password: PASSWORD })).status, 200);
  });

  it('does not count successful sign-ins against the address', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    const address = nextAddress();
    for (let i = 0; i < 12; i++) assert.equal((await signIn({ email, password: PASSWORD }, address)).status, 200);
  });

  it('refuses a body without email or password with 400', async () => {
    assert.equal((await signIn({ email: 'a@example.com' })).status, 400);
    assert.equal((await signIn({ password: 'x' })).status, 400);
  });
});

describe('a session on the JSON API', () => {
  it('describes itself on GET /api/session', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const reply = await browser.get('/api/session');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, browser.signIn.body);
  });

  it('answers GET /api/session with 401 without a session, and for an API key', async () => {
    const org = await t.org();
    assert.equal((await t.request({ method: 'GET', url: '/api/session' })).status, 401);
    const withKey = await org.get('/api/session');
    assert.equal(withKey.status, 401);
    assert.deepEqual(Object.keys(withKey.body), ['error']);
    const garbage = await t.request({ method: 'GET', url: '/api/session', headers: { cookie: 'eventlog_session=nonsense' } });
    assert.equal(garbage.status, 401);
  });

  it('reads and writes the organization data like an API key does', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const theirs = await t.org();
    await theirs.project('Not mine');
    const created = await browser.post('/api/projects', { name: 'From the dashboard' });
    assert.equal(created.status, 201);
    const listed = await browser.get('/api/projects');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((p: { id: string }) => p.id),
      [created.body.id],
    );
    assert.equal(listed.body[0].organizationId, org.id);
  });

  it('refuses a write without the CSRF token, or with a wrong one, with 403', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    for (const csrf of [null, '', 'wrong', browser.csrfToken.slice(1)]) {
      const reply = await browser.post('/api/projects', { name: 'Forged' }, { csrf });
      assert.equal(reply.status, 403, `csrf ${JSON.stringify(csrf)}`);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.deepEqual((await browser.get('/api/projects')).body, []);
  });

  it('does not take the CSRF token of another session', async () => {
    const org = await t.org();
    const [mine, other] = [await signInAs(t, org), await signInAs(t, org)];
    assert.equal((await mine.post('/api/projects', { name: 'X' }, { csrf: other.csrfToken })).status, 403);
  });

  it('needs no CSRF token for a request with a bearer key, even with a cookie beside it', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const reply = await org.post('/api/projects', { name: 'By key' }, { cookie: browser.cookie });
    assert.equal(reply.status, 201);
  });

  it('judges a request with a bad bearer key on the key alone, whatever the cookie', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const reply = await browser.get('/api/projects', { authorization: 'Bearer ev_nonsense' });
    assert.equal(reply.status, 401);
  });

  it('answers 401 without a cookie or a key', async () => {
    assert.equal((await t.request({ method: 'GET', url: '/api/projects' })).status, 401);
    assert.equal((await t.request({ method: 'POST', url: '/api/projects', body: { name: 'x' } })).status, 401);
  });
});

describe('sign-out and expiry', () => {
  it('sign-out deletes the session: the same cookie no longer works', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const out = await browser.post('/api/session/delete');
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { ok: true });
    const cleared = String(out.headers['set-cookie']);
    assert.match(cleared, /^eventlog_session=;/);
    assert.match(cleared, /Max-Age=0|Expires=Thu, 01 Jan 1970/);
    assert.equal((await browser.get('/api/projects')).status, 401);
    assert.equal((await browser.get('/api/session')).status, 401);
    const [row] = await t.services.sql`
      SELECT count(*)::int AS n FROM sessions WHERE organization_id = ${org.id} AND user_id = ${browser.userId}`;
    assert.equal(row!.n, 0);
    const { hashSessionToken } = await import('../../src/features/sessions/sessionToken.ts');
    const routes = await t.services.sql`SELECT 1 FROM credentials WHERE hash = ${hashSessionToken(browser.cookie.split('=')[1]!)}`;
    assert.equal(routes.length, 0, 'the routing row goes with the session');
  });

  it('sign-out of a live session needs the CSRF token', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    assert.equal((await browser.post('/api/session/delete', undefined, { csrf: null })).status, 403);
    assert.equal((await browser.get('/api/projects')).status, 200);
  });

  it('sign-out without a session succeeds and clears the cookie', async () => {
    const reply = await t.request({ method: 'POST', url: '/api/session/delete' });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true });
  });

  it('a session past its absolute expiry answers 401', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    await expireSession(browser.cookie, 'expires_at', '1 second');
    const reply = await browser.get('/api/projects');
    assert.equal(reply.status, 401);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('a session idle for 7 days answers 401', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    await expireSession(browser.cookie, 'last_seen_at', '7 days 1 second');
    assert.equal((await browser.get('/api/projects')).status, 401);
  });

  it('use slides the idle expiry, at most once a minute', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const lastSeen = async () => {
      const [row] = await t.services.sql<{ idle: number }[]>`
        SELECT extract(epoch FROM now() - last_seen_at)::float8 AS idle
        FROM sessions WHERE organization_id = ${org.id} AND user_id = ${browser.userId}`;
      return row!.idle;
    };
    await expireSession(browser.cookie, 'last_seen_at', '30 seconds');
    assert.equal((await browser.get('/api/projects')).status, 200);
    assert.ok((await lastSeen()) >= 29, 'a recent use does not write');
    await expireSession(browser.cookie, 'last_seen_at', '6 days');
    assert.equal((await browser.get('/api/projects')).status, 200);
    assert.ok((await lastSeen()) < 5, 'an older one slides last_seen_at');
  });

  it('a cookie from another deployment-looking token is just unauthenticated', async () => {
    const stranger = browserFor(t, `eventlog_session=${'a'.repeat(43)}`, 'x');
    assert.equal((await stranger.get('/api/projects')).status, 401);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type Sql, createClient } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/services.ts';
import { createOwnDatabase } from '../ownDatabase.ts';
import { sessionCookieOf } from '../signedIn.ts';

/**
 * First-run setup depends on the whole installation having no user, which the shared test
 * database never is. These tests get an installation of their own: a fresh database on the
 * same server, migrated from scratch and dropped afterwards.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Run the tests with `npm test`: it provides DATABASE_URL');
// A role without CREATEDB cannot have an installation of its own: say so instead of failing.
const own = await createOwnDatabase(url, { prefix: 'eventlog_setup' }).catch((error: { code?: string }) => {
  if (error.code === '42501') return null;
  throw error;
});
const skip = own ? false : 'the database role may not CREATE DATABASE';
const state = {} as { sql: Sql; app: App; closeServices: () => Promise<void> };

before(async () => {
  if (!own) return;
  const config = loadConfig({ ...process.env, DATABASE_URL: own.url });
  state.sql = createClient(own.url, { max: 6 });
  await migrate(state.sql);
  const { services, close } = await createServices(config, state.sql, createLogger('silent'), { listen: false });
  state.closeServices = close;
  state.app = await buildApp({ services });
  await state.app.ready();
});

after(async () => {
  await state.app?.close();
  await state.closeServices?.();
  await state.sql?.end({ timeout: 5 });
  await own?.drop();
});

const request = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const raw = await state.app.inject({
    method,
    url: path,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: raw.statusCode, body: raw.body ? raw.json() : undefined, headers: raw.headers, raw };
};

const count = async (table: 'users' | 'user_emails' | 'organizations' | 'sessions' | 'credentials') =>
  (await state.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${state.sql(table)}`)[0]!.n;

describe('first-run setup on an empty installation', { skip }, () => {
  it('is offered while there is no user', async () => {
    const reply = await request('GET', '/api/setup');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { needed: true, signIn: { password: true, oidc: null } });
  });

  it('writes nothing when the owner is unusable', async () => {
    const short = await request('POST', '/api/setup', { organizationName: 'Acme', email: 'owner@example.com', password: 'short' });
    assert.equal(short.status, 400);
    assert.match(short.body.error, /password/);
    const badEmail = await request('POST', '/api/setup', { organizationName: 'Acme', email: 'nope', password: 'long enough' });
    assert.equal(badEmail.status, 400);
    const blankName = await request('POST', '/api/setup', { organizationName: '  ', email: 'owner@example.com', password: 'long enough' });
    assert.equal(blankName.status, 400);
    assert.equal(await count('organizations'), 0);
    assert.equal(await count('users'), 0);
    assert.equal(await count('user_emails'), 0);
    assert.deepEqual((await request('GET', '/api/setup')).body, { needed: true, signIn: { password: true, oidc: null } });
  });

  it('lets exactly one of several concurrent setups win, and signs its owner in', async () => {
    const attempts = await Promise.all(
      ['First', 'Second', 'Third'].map((name, i) =>
        request('POST', '/api/setup', { organizationName: ` ${name} `, email: `owner${i}@example.com`, password: 'long enough password' }),
      ),
    );
    const won = attempts.filter((r) => r.status === 201);
    const lost = attempts.filter((r) => r.status === 409);
    assert.equal(won.length, 1, JSON.stringify(attempts.map((r) => r.status)));
    assert.equal(lost.length, 2);
    for (const reply of lost) assert.deepEqual(Object.keys(reply.body), ['error']);
    assert.equal(await count('organizations'), 1);
    assert.equal(await count('users'), 1);
    assert.equal(await count('user_emails'), 1);
    assert.equal(await count('sessions'), 1);
    assert.equal(await count('credentials'), 1);

    const winner = won[0]!;
    assert.deepEqual(Object.keys(winner.body).sort(), ['csrfToken', 'organization', 'user']);
    assert.match(winner.body.user.email, /^owner\d@example\.com$/);
    assert.match(winner.body.organization.name, /^(First|Second|Third)$/);
    const cookie = sessionCookieOf(winner);
    assert.ok(cookie);
    assert.match(String(winner.headers['set-cookie']), /HttpOnly; SameSite=Lax/);

    const session = await request('GET', '/api/session', undefined, { cookie });
    assert.equal(session.status, 200);
    assert.deepEqual(session.body, winner.body);
    const project = await request('POST', '/api/projects', { name: 'First project' }, { cookie, 'x-csrf-token': winner.body.csrfToken });
    assert.equal(project.status, 201);
  });

  it('is not offered again, and a later setup is refused', async () => {
    assert.deepEqual((await request('GET', '/api/setup')).body, { needed: false, signIn: { password: true, oidc: null } });
    const again = await request('POST', '/api/setup', { organizationName: 'Late', email: 'late@example.com', password: 'long enough password' });
    assert.equal(again.status, 409);
    assert.equal(await count('organizations'), 1);
  });

  it('the owner can sign in with the password chosen at setup', async () => {
    const [owner] = await state.sql<{ email: string }[]>`SELECT email FROM users`;
    const reply = await request('POST', '/api/session', { email: owner!.email, password: 'long enough password' });
    assert.equal(reply.status, 200);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import crypto from 'node:crypto';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createClient } from '../../src/db/client.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { generateApiKey } from '../../src/features/keys/keyFormat.ts';
import { revokeKey } from '../../src/features/keys/revokeKey.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/services.ts';
import type { TestOrg } from '../helpers.ts';
import {
  useRouteSuite,
  PLANS,
  PUBLIC_API_ROUTES,
  UNAUTHENTICATED_PATHS,
  type Route,
  routeKey,
  routes,
  isApiPath,
  authenticatedApiRoutes,
  paramsOf,
  fill,
  headersFor,
  send,
  assertErrorBody,
  newSide,
  isRegistered,
  FIXTURES,
  resource,
  sessionOf,
  memberSessionOf,
  credentialOf,
  type Scope,
  scopeOf,
  requestNaming,
  call,
  inputCount,
  ghostOf,
} from './routeSuite.ts';
import { waitUntil } from '../wait.ts';

const t = useRouteSuite();

describe('authentication of every /api route', () => {
  /** Credentials that must all be refused, made for `org`. */
  async function badCredentials(org: TestOrg): Promise<Array<[string, Record<string, string>]>> {
    const { key } = org;
    const neverUsed = await createKey({ ctx: org.ctx, input: undefined });
    await revokeKey({ ctx: org.ctx, input: { keyId: neverUsed.id } });
    const used = await usedThenRevokedKey(org);
    return [
      ['no Authorization header', {}],
      ['Bearer nope', { authorization: 'Bearer nope' }],
      ['an empty Bearer', { authorization: 'Bearer ' }],
      ['an upper-case key', { authorization: `Bearer ev_${key.slice(3).toUpperCase()}` }],
      ['a key missing its last character (8-4-4-4-11)', { authorization: `Bearer ${key.slice(0, -1)}` }],
      ['a key with one character more (8-4-4-4-13)', { authorization: `Bearer ${key}a` }],
      ['segments of 9-3-4-4-12', { authorization: `Bearer ev_${key.slice(3, 11)}${key.slice(12, 13)}-${key.slice(13)}` }],
      ['a key without ev_', { authorization: `Bearer ${key.slice(3)}` }],
      ['a key with another prefix', { authorization: `Bearer sk_${key.slice(3)}` }],
      ['two keys', { authorization: `Bearer ${key} ${key}` }],
      ['Basic credentials holding the key', { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }],
      ['the key without a scheme', { authorization: key }],
      ['a well-formed unknown key', { authorization: `Bearer ${generateApiKey()}` }],
      ['a revoked key never used', { authorization: `Bearer ${neverUsed.key}` }],
      ['a key revoked after it was used', { authorization: `Bearer ${used}` }],
      ['a session cookie that is no session', { cookie: `eventlog_session=${crypto.randomBytes(32).toString('base64url')}` }],
    ];
  }

  /**
   * A key used (so cached) by this app and by a second app on its own pool, as a second server
   * process would be, then revoked here: the second app only learns of it through the bus.
   */
  async function usedThenRevokedKey(org: TestOrg): Promise<string> {
    const { key, id } = await createKey({ ctx: org.ctx, input: undefined });
    const other = await secondServer();
    const auth = { authorization: `Bearer ${key}` };
    const status = async (app: App) => (await app.inject({ method: 'GET', url: '/api/projects', headers: auth })).statusCode;
    assert.equal(await status(t.app), 200);
    assert.equal(await status(other.app), 200);
    await revokeKey({ ctx: org.ctx, input: { keyId: id } });
    try {
      await waitUntil(async () => (await status(other.app)) === 401, { timeoutMs: 5_000, message: 'the revocation to reach the other server through the bus' });
      assert.equal(await status(t.app), 401);
    } finally {
      await other.close();
    }
    return key;
  }

  async function secondServer(): Promise<{ app: App; close(): Promise<void> }> {
    const config = loadConfig({ ...process.env });
    const sql = createClient(config.databaseUrl!, { max: 2 });
    const services = await createServices(config, sql, createLogger('silent'));
    const app = await buildApp({ services: services.services });
    await app.ready();
    return {
      app,
      close: async () => {
        await app.close();
        await services.close();
        await sql.end({ timeout: 5 });
      },
    };
  }

  it('answers 401 {error} to missing, malformed, unknown and revoked credentials on every route', async (tc) => {
    const org = await t.org();
    const credentials = await badCredentials(org);
    const covered = authenticatedApiRoutes();
    assert.ok(covered.length > 0);
    tc.diagnostic(`routes checked: ${covered.length}`);
    for (const route of covered) {
      await tc.test(routeKey(route), async () => {
        const url = fill(route.url, {});
        for (const [label, headers] of credentials) {
          const body = route.method === 'GET' ? undefined : {};
          const reply = await send(route.method, url, headers, body);
          assert.equal(reply.status, 401, `${label}: expected 401, got ${reply.status} ${JSON.stringify(reply.body)}`);
          assertErrorBody(reply, label);
        }
        // Fastify answers HEAD for every GET route; it must not skip authentication.
        if (route.method === 'GET') assert.equal((await send('HEAD', url, {})).status, 401, 'HEAD without credentials');
      });
    }
  });

  it('refuses API keys with 403 {error} on the routes that need a signed-in person', async (tc) => {
    for (const route of authenticatedApiRoutes().filter((r) => PLANS[routeKey(r)]?.credential === 'session')) {
      const scope = await scopeOf(route);
      await tc.test(routeKey(route), { skip: scope.pending }, async () => {
        // A request that a signed-in person of the organization could make, sent with its API key.
        const side = await newSide('own');
        const request = await requestNaming(route, scope, Array(inputCount(scope)).fill(side));
        const reply = await call(route, scope, { key: side.org.key }, request);
        assert.ok([401, 403].includes(reply.status), `expected 403 (or 401), got ${reply.status} ${JSON.stringify(reply.body)}`);
        assertErrorBody(reply, 'an API key');
      });
    }
  });
});

describe('owner-only routes', () => {
  it("refuse a member's session with 403 {error} and change nothing", async (tc) => {
    for (const route of authenticatedApiRoutes().filter((r) => PLANS[routeKey(r)]?.owner)) {
      const scope = await scopeOf(route);
      await tc.test(routeKey(route), { skip: scope.pending }, async () => {
        const side = await newSide('own');
        const request = await requestNaming(route, scope, Array(inputCount(scope)).fill(side));
        const reply = await call(route, scope, await memberSessionOf(side), request);
        assert.equal(reply.status, 403, `expected 403, got ${reply.status} ${JSON.stringify(reply.body)}`);
        assertErrorBody(reply, "a member's session");
        // The owner's same request still succeeds: the refusal was the role, not the request.
        const own = await call(route, scope, (await sessionOf(side))!, request);
        assert.ok(own.status < 400, `the owner's request must succeed, got ${own.status} ${JSON.stringify(own.body)}`);
      });
    }
  });
});

describe('organization scope of every route that names a resource', () => {
  /** Registered routes that name a resource, and plan entries whose route does not exist yet. */
  async function scopedRoutes(): Promise<Array<{ route: Route; scope?: Scope }>> {
    const found: Array<{ route: Route; scope?: Scope }> = [];
    for (const route of authenticatedApiRoutes()) {
      const scope = await scopeOf(route);
      if (scope.problem || inputCount(scope) > 0) found.push({ route, scope });
    }
    for (const key of Object.keys(PLANS)) {
      if (isRegistered(key)) continue;
      const [method, url] = key.split(' ') as [string, string];
      if (paramsOf(url).length > 0 || PLANS[key]!.project) found.push({ route: { method, url, public: false } });
    }
    return found;
  }

  it("answers 404 {error} when an organization names another organization's resource; the owner succeeds", async (tc) => {
    const checked: string[] = [];
    for (const { route, scope } of await scopedRoutes()) {
      const key = routeKey(route);
      const skip = !scope ? 'route not registered yet' : scope.pending;
      await tc.test(key, { skip }, async () => {
        if (scope!.problem) assert.fail(scope!.problem);
        const plan = scope!.plan;
        const [a, b] = [await newSide('a'), await newSide('b')];
        const [asA, asB] = [await credentialOf(a, plan), await credentialOf(b, plan)];
        if (!asA || !asB) {
          tc.diagnostic(`${key}: skipped, it needs a dashboard session and POST /api/session is not registered yet`);
          return;
        }
        const inputs = inputCount(scope!);
        const theirs = await requestNaming(route, scope!, Array(inputs).fill(b));
        const crossed = await call(route, scope!, asA, theirs);
        assert.equal(
          crossed.status,
          404,
          `another organization's resource must be 404 (never 403 or 2xx), got ${crossed.status} ${JSON.stringify(crossed.body)}`,
        );
        assertErrorBody(crossed, 'another organization', { itemIndex: plan.itemIndex });

        // A resource that exists nowhere: the very same answer, so that none tells them apart.
        const kinds = [...scope!.params.map((p) => p.kind), ...(plan.project ? ['project' as const] : [])];
        const ghost = await ghostOf(b, kinds);
        const nowhere = await call(route, scope!, asA, await requestNaming(route, scope!, Array(inputs).fill(ghost)));
        assert.deepEqual(
          { status: nowhere.status, error: nowhere.body?.error },
          { status: crossed.status, error: crossed.body?.error },
          "naming a resource that exists nowhere must answer exactly as naming another organization's",
        );

        // With several ids, each one of B's in turn among A's own (e.g. B's delivery under A's destination).
        if (inputs > 1) {
          for (let i = 0; i < inputs; i++) {
            const owners = Array.from({ length: inputs }, (_, j) => (j === i ? b : a));
            const mixed = await call(route, scope!, asA, await requestNaming(route, scope!, owners));
            assert.equal(mixed.status, 404, `input ${i + 1} of ${inputs} from another organization: got ${mixed.status} ${JSON.stringify(mixed.body)}`);
            assertErrorBody(mixed, 'a mixed request', { itemIndex: plan.itemIndex });
          }
        }

        const own = await call(route, scope!, asB, theirs);
        assert.ok(
          own.status < 400,
          `the same request by the owner must succeed, got ${own.status} ${JSON.stringify(own.body)}: the suite's request is ` +
            'not valid for this route; fix or add its PLANS entry in test/security/routes.test.ts',
        );
        checked.push(key);
      });
    }
    tc.diagnostic(`routes checked across organizations: ${checked.length}`);
  });

  it('shows nothing of another organization in listings', async (tc) => {
    const b = await newSide('b');
    const names: string[] = [b.mark, b.org.id];
    for (const kind of ['project', 'event', 'insight', 'hook', 'destination'] as const) {
      if (FIXTURES[kind].needs.every(isRegistered)) {
        const id = await resource(b, kind);
        if (id.length >= 8) names.push(id);
      }
    }
    const a = await newSide('a');
    await resource(a, 'project');
    for (const route of authenticatedApiRoutes()) {
      const scope = await scopeOf(route);
      if (route.method !== 'GET' || scope.problem || inputCount(scope) > 0 || scope.plan.stream) continue;
      await tc.test(routeKey(route), async () => {
        const credential = await credentialOf(a, scope.plan);
        if (!credential) return;
        const reply = await send('GET', route.url, headersFor(credential, 'GET'));
        assert.ok(reply.status < 400, `expected a listing, got ${reply.status} ${JSON.stringify(reply.body)}`);
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        for (const name of names) assert.equal(text.includes(name), false, `the reply shows ${name} of another organization`);
      });
    }
  });
});

describe('routes that answer without credentials', () => {
  it('are only the known public ones', () => {
    const unexpected = routes()
      .filter((r) => (isApiPath(r.url) ? r.public && !PUBLIC_API_ROUTES.has(routeKey(r)) : !UNAUTHENTICATED_PATHS.some((p) => p.test(r.url))))
      .map(routeKey);
    assert.deepEqual(
      unexpected,
      [],
      'These routes answer without credentials. If that is intended, list them in PUBLIC_API_ROUTES or ' +
        'UNAUTHENTICATED_PATHS in test/security/routes.test.ts with the reason; otherwise move them under /api/ ' +
        'and drop config.public.',
    );
  });

  it('the OpenID Connect choice routes take only the sealed choice cookie: 401 {error} with anything else', async () => {
    const org = await t.org();
    const credentials: Array<Record<string, string>> = [{}, { authorization: `Bearer ${org.key}` }, { cookie: 'eventlog_oidc_choice=forged.choice.cookie' }];
    for (const headers of credentials) {
      for (const [method, url] of [
        ['GET', '/api/oidc/choices'],
        ['POST', '/api/oidc/choices/inv1/accept'],
      ] as const) {
        const label = `${method} ${url} ${JSON.stringify(headers)}`;
        const reply = await send(method, url, headers);
        assert.equal(reply.status, 401, label);
        assertErrorBody(reply, label);
      }
    }
  });

  it('GET /healthz answers 200 {"ok":true}', async () => {
    const reply = await send('GET', '/healthz', {});
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    assert.deepEqual(reply.body, { ok: true });
  });

  it('an unknown route answers 404 {error}, with or without credentials', async () => {
    const org = await t.org();
    const requests: Array<[string, string]> = [
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['GET', '/api/projects/abc/nope'],
      ['DELETE', '/api/projects'],
      ['PUT', '/api/events'],
      ['GET', '/nope'],
      ['GET', '/api'],
    ];
    for (const [method, url] of requests) {
      for (const headers of [{}, { authorization: `Bearer ${org.key}` }] as Array<Record<string, string>>) {
        const reply = await send(method, url, headers);
        assert.equal(reply.status, 404, `${method} ${url}: ${reply.status}`);
        assertErrorBody(reply, `${method} ${url}`);
      }
    }
  });
});

describe('server errors', () => {
  it('answer 500 {error} that says nothing of their cause', async () => {
    const org = await t.org();
    const app = await buildApp({ services: t.services });
    const secret = 'connect ECONNREFUSED 10.9.8.7:5432 password=hunter2 at /srv/eventlog/src/db/client.ts';
    app.get('/api/security-test/throws', () => Promise.reject(new Error(secret)));
    app.get('/api/security-test/database', () =>
      Promise.reject(Object.assign(new Error(`duplicate key value violates unique constraint "api_keys_pkey" ${secret}`), { code: '23505', detail: secret })),
    );
    app.get('/api/security-test/status', () => Promise.reject(Object.assign(new Error(secret), { statusCode: 502 })));
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what a rejected non-Error does is the point
    app.get('/api/security-test/string', () => Promise.reject(secret));
    app.get(
      '/api/security-test/response-schema',
      { schema: { response: { 200: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } },
      () => Promise.resolve({ id: secret } as unknown as { id: number }),
    );
    app.get('/healthz-security-test', { config: { public: true } }, () => Promise.reject(new Error(secret)));
    await app.ready();
    try {
      for (const url of [
        '/api/security-test/throws',
        '/api/security-test/database',
        '/api/security-test/status',
        '/api/security-test/string',
        '/api/security-test/response-schema',
        '/healthz-security-test',
      ]) {
        const reply = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${org.key}` } });
        assert.equal(reply.statusCode, 500, `${url}: ${reply.statusCode} ${reply.body}`);
        const body = reply.json();
        assertErrorBody({ status: reply.statusCode, body, headers: reply.headers }, url);
        for (const leak of ['hunter2', '10.9.8.7', 'ECONNREFUSED', 'api_keys_pkey', '/srv/', 'client.ts', '    at ']) {
          assert.equal(reply.body.includes(leak), false, `${url} leaks "${leak}": ${reply.body}`);
        }
      }
    } finally {
      await app.close();
    }
  });
});

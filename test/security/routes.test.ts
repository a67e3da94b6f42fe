import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createClient } from '../../src/db/client.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { generateApiKey } from '../../src/features/keys/keyFormat.ts';
import { revokeKey } from '../../src/features/keys/revokeKey.ts';
import { createUser } from '../../src/features/users/createUser.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/services.ts';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';

/**
 * The shared security suite. It walks `app.routeTable`, so every route is checked the moment it
 * is registered, without anyone adding it here:
 *
 * - every non-public /api route answers 401 {error} to missing, malformed, unknown and revoked
 *   credentials;
 * - every route that names a resource (a path parameter, or a `project` in the query or body)
 *   answers 404 {error} when one organization names another organization's real resource, and
 *   the same request succeeds for the owner (so the 404 is the scope, not bad input);
 * - listings show nothing of another organization;
 * - only known routes answer without credentials.
 *
 * A new path parameter needs a FIXTURE (how to create that kind of resource); a route that needs
 * a request body or a signed-in person needs a PLAN. The suite fails, saying so, until they exist.
 */

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

// ---------------------------------------------------------------------------------------------
// What the suite knows about the routes

type Kind = 'project' | 'event' | 'insight' | 'hook' | 'destination' | 'delivery' | 'key' | 'appUser' | 'member' | 'alert';

/** Path parameter name → the kind of resource it names. */
const PARAM_KINDS: Record<string, Kind> = {
  projectId: 'project',
  eventId: 'event',
  insightId: 'insight',
  hookId: 'hook',
  destinationId: 'destination',
  deliveryId: 'delivery',
  keyId: 'key',
  userId: 'appUser',
  memberId: 'member',
  alertId: 'alert',
};

const ALERT_CONDITION = { count: 'atLeast', threshold: 5, windowSeconds: 60 };

function kindOf(param: string, url: string): Kind | undefined {
  if (param === 'id' && url.startsWith('/api/destinations/')) return 'destination';
  return PARAM_KINDS[param];
}

interface Plan {
  /** The route also names a project outside its path. */
  project?: 'query' | 'body';
  /** A body the owner's request succeeds with; `ids` holds the resources the request names. */
  body?: (side: Side, ids: Record<string, string>) => unknown;
  /** Only a person signed in to the dashboard may call it (API keys get 403). */
  credential?: 'session';
  /** Only an owner's session may call it: a member's session gets 403 too. */
  owner?: true;
  /** Answers with a stream that does not end (server-sent events). */
  stream?: true;
}

/**
 * How to call every route of the specification (product spec, operations.md, the dashboard).
 * Entries whose route is not registered are reported as skipped; registered routes without an
 * entry are still checked when the suite can build their request itself (no body needed).
 */
const PLANS: Record<string, Plan> = {
  'GET /api/projects': {},
  'POST /api/projects': { body: (side) => ({ name: side.mark }) },
  'POST /api/events': { project: 'body', body: (side, ids) => ({ project: ids.project, category: 'security', title: side.mark }) },
  'GET /api/events': { project: 'query' },
  'GET /api/events/:eventId': {},
  'POST /api/events/:eventId/delete': {},
  'POST /api/events/:eventId/favorite': {},
  'GET /api/categories': { project: 'query' },
  'GET /api/live': { project: 'query', stream: true },
  'POST /api/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: 1 }) },
  'POST /api/insight/:insightId/delete': {},
  'GET /api/insights': { project: 'query' },
  'GET /api/charts': { project: 'query' },
  'GET /api/export': {},
  'POST /api/import': { body: (side) => ({ version: 1, projects: [{ id: 'label', name: side.mark }] }) },
  'GET /api/projects/:projectId/hooks': {},
  'POST /api/projects/:projectId/hooks': { body: (side) => ({ name: side.mark, category: 'security' }) },
  'POST /api/hooks/:hookId/pause': {},
  'POST /api/hooks/:hookId/resume': {},
  'POST /api/hooks/:hookId/delete': {},
  'GET /api/projects/:projectId/destinations': {},
  'POST /api/projects/:projectId/destinations': { body: (side) => ({ name: side.mark, url: receiver.url, format: 'json' }) },
  'POST /api/destinations/:destinationId/enable': {},
  'POST /api/destinations/:destinationId/disable': {},
  'POST /api/destinations/:destinationId/rotate-secret': {},
  'POST /api/destinations/:destinationId/test': {},
  'POST /api/destinations/:destinationId/delete': {},
  'GET /api/destinations/:destinationId/deliveries': {},
  'POST /api/destinations/:destinationId/deliveries/:deliveryId/replay': {},
  'PATCH /api/destinations/:destinationId': { body: (side) => ({ name: side.mark, categories: ['security'] }) },
  'POST /api/destinations/:destinationId/replay-failed': { body: () => ({ since: 0 }) },
  'GET /api/destinations/:destinationId/health': {},
  'POST /api/projects/:projectId/alerts': { body: (side) => ({ name: side.mark, condition: ALERT_CONDITION }) },
  'GET /api/projects/:projectId/alerts': {},
  'POST /api/projects/:projectId/alerts/preview': { body: () => ({ windowSeconds: 60 }) },
  'GET /api/alerts/:alertId': {},
  'PATCH /api/alerts/:alertId': { body: (side) => ({ name: side.mark }) },
  'POST /api/alerts/:alertId/mute': { body: () => ({ until: null }) },
  'POST /api/alerts/:alertId/delete': {},
  'GET /api/alerts/:alertId/history': {},
  'GET /api/keys': { credential: 'session', owner: true },
  'POST /api/keys': { credential: 'session', owner: true },
  'POST /api/keys/:keyId/revoke': { credential: 'session', owner: true },
  'GET /api/organization': {},
  'GET /api/members': { credential: 'session', owner: true },
  'POST /api/invitations': { credential: 'session', owner: true, body: () => ({ email: `invited-${crypto.randomUUID()}@example.test`, role: 'member' }) },
  'POST /api/members/:memberId/role': { credential: 'session', owner: true, body: () => ({ role: 'member' }) },
  'POST /api/members/:memberId/delete': { credential: 'session', owner: true },
  'GET /api/session': { credential: 'session' },
  'GET /api/me/digest': { credential: 'session' },
  'PUT /api/me/digest': { credential: 'session', body: () => ({ frequency: 'off', hour: 8, timeZone: 'UTC' }) },
  'POST /api/me/digest/send': { credential: 'session' },
  'GET /api/push/vapid-public-key': {},
  'POST /api/projects/:projectId/push-subscriptions': { credential: 'session', body: () => pushSubscription() },
  'PATCH /api/projects/:projectId': { body: (side) => ({ name: side.mark }) },
  'POST /api/identify': { project: 'body', body: (side, ids) => ({ project: ids.project, user_id: side.mark, properties: { mark: side.mark } }) },
  'GET /api/users': { project: 'query' },
  'POST /v1/identify': { project: 'body', body: (side, ids) => ({ project: ids.project, user_id: side.mark, properties: { mark: side.mark } }) },
  'GET /api/users/:userId': { project: 'query' },
  'POST /api/push-subscriptions/delete': { body: () => ({ endpoint: 'https://push.example.test/send/unknown' }) },
  'POST /api/projects/:projectId/delete': {},
  'PATCH /api/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: { $inc: 1 } }) },
  'POST /v1/log': { project: 'body', body: (side, ids) => ({ project: ids.project, channel: 'security', event: side.mark }) },
  'POST /v1/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: 1 }) },
  'PATCH /v1/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: { $inc: 1 } }) },
};

/** /api routes that answer without credentials, on purpose. */
const PUBLIC_API_ROUTES = new Set([
  'GET /api/openapi.json', // the API description
  'GET /api/setup', // whether first-run setup is offered
  'POST /api/setup', // first-run setup (only while there is no user)
  'POST /api/session', // sign-in
  'POST /api/session/delete', // sign-out (checks the session's CSRF token itself)
  'POST /api/invitations/accept', // the invitation token in the body is the credential
  'POST /api/password-reset', // asked for from the sign-in page; answers alike for any email
  'POST /api/password-reset/confirm', // the reset token in the body is the credential
]);

/** Routes outside /api are never authenticated (auth.ts): only these may exist. */
const UNAUTHENTICATED_PATHS = [/^\/$/, /^\/healthz$/, /^\/livez$/, /^\/hook\/:token$/, /^\/app$/, /^\/app\/\*$/];

// ---------------------------------------------------------------------------------------------
// Routes, requests and replies

interface Route {
  method: string;
  url: string;
  public: boolean;
}

const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

function routes(): Route[] {
  const seen = new Map<string, Route>();
  for (const route of t.app.routeTable) seen.set(routeKey(route), route);
  return [...seen.values()];
}

/** /v1/ holds the LogSnag-compatible routes, authenticated like /api/ (auth.ts). */
const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/v1/');
const authenticatedApiRoutes = () => routes().filter((r) => isApiPath(r.url) && !r.public);

const PARAM = /:([A-Za-z0-9_]+)(?:\([^)]*\))?/g;
const paramsOf = (url: string) => [...url.matchAll(PARAM)].map((m) => m[1]!);
const fill = (url: string, values: Record<string, string>) =>
  url.replace(PARAM, (_, name: string) => encodeURIComponent(values[name] ?? 'x1'));

type Credential = { key: string } | { cookie: string; csrfToken: string };

function headersFor(credential: Credential | undefined, method: string): Record<string, string> {
  if (!credential) return {};
  if ('key' in credential) return { authorization: `Bearer ${credential.key}` };
  return { cookie: credential.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': credential.csrfToken }) };
}

const REPLY_TIMEOUT_MS = 15_000;

/** One request through inject, failing clearly instead of hanging when a route never answers. */
async function send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method} ${url} did not answer within ${REPLY_TIMEOUT_MS} ms`)), REPLY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      t.request({ method: method as 'GET', url, headers, ...(body === undefined ? {} : { body }) }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

let listening: string | undefined;

/** A streaming route over real HTTP: its status, and its body unless it is an open stream. */
async function sendStreaming(method: string, url: string, headers: Record<string, string>): Promise<Pick<Reply, 'status' | 'body' | 'headers'>> {
  listening ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REPLY_TIMEOUT_MS);
  try {
    const reply = await fetch(`${listening}${url}`, { method, headers, signal: controller.signal });
    const replyHeaders = Object.fromEntries(reply.headers.entries());
    if (reply.status === 200) {
      controller.abort();
      return { status: 200, body: null, headers: replyHeaders };
    }
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : text, headers: replyHeaders };
  } finally {
    clearTimeout(timer);
  }
}

function assertErrorBody(reply: Pick<Reply, 'status' | 'body' | 'headers'>, label: string): void {
  assert.match(String(reply.headers['content-type'] ?? ''), /^application\/json/, `${label}: content-type`);
  assert.ok(reply.body && typeof reply.body === 'object', `${label}: a JSON body, got ${JSON.stringify(reply.body)}`);
  assert.deepEqual(Object.keys(reply.body), ['error'], `${label}: the body is exactly {error}, got ${JSON.stringify(reply.body)}`);
  assert.equal(typeof reply.body.error, 'string', `${label}: error is a string`);
  assert.ok(reply.body.error.length > 0, `${label}: error says something`);
}

async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: resources of one organization, made through the public API where it exists

/** An organization the suite acts as, with the resources it made so far. */
interface Side {
  org: TestOrg;
  /** In the name of everything this side makes, so a leak is easy to spot in any reply. */
  mark: string;
  made: Map<Kind, Promise<string>>;
  session?: Promise<Credential | null>;
}

async function newSide(label: string): Promise<Side> {
  return { org: await t.org(), mark: `${label}-secret-${crypto.randomBytes(6).toString('hex')}`, made: new Map() };
}

const isRegistered = (key: string) => routes().some((r) => routeKey(r) === key);

function created(reply: Reply, what: string): Record<string, unknown> {
  if (reply.status >= 300) throw new Error(`making a ${what} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as Record<string, unknown>;
}

interface Fixture {
  /** Routes the fixture needs; while one is missing, the routes that need the fixture are skipped. */
  needs: string[];
  make(side: Side): Promise<string>;
}

const FIXTURES: Record<Kind, Fixture> = {
  alert: {
    needs: ['POST /api/projects/:projectId/alerts'],
    async make(side) {
      const project = await resource(side, 'project');
      return String((created(await side.org.post(`/api/projects/${project}/alerts`, { name: side.mark, condition: ALERT_CONDITION }), 'alert')).id);
    },
  },
  project: {
    needs: ['POST /api/projects'],
    make: (side) => side.org.project(`${side.mark} project`),
  },
  event: {
    needs: ['POST /api/events'],
    async make(side) {
      const project = await resource(side, 'project');
      const event = created(await side.org.post('/api/events', { project, category: 'security', title: side.mark }), 'event');
      return String(event.id);
    },
  },
  insight: {
    needs: ['POST /api/insight', 'GET /api/insights'],
    async make(side) {
      const project = await resource(side, 'project');
      created(await side.org.post('/api/insight', { project, title: side.mark, value: 42 }), 'insight');
      const listed = await side.org.get(`/api/insights?project=${project}`);
      const insight = (listed.body as Array<{ id: number; title: string }>).find((i) => i.title === side.mark);
      if (!insight) throw new Error(`GET /api/insights did not list the insight just made: ${JSON.stringify(listed.body)}`);
      return String(insight.id);
    },
  },
  hook: {
    needs: ['POST /api/projects/:projectId/hooks'],
    async make(side) {
      const project = await resource(side, 'project');
      return String((created(await side.org.post(`/api/projects/${project}/hooks`, { name: side.mark, category: 'security' }), 'hook')).id);
    },
  },
  destination: {
    needs: ['POST /api/projects/:projectId/destinations'],
    async make(side) {
      const project = await resource(side, 'project');
      const body = { name: side.mark, url: receiver.url, format: 'json' };
      return String((created(await side.org.post(`/api/projects/${project}/destinations`, body), 'destination')).id);
    },
  },
  delivery: {
    // The Test action records a delivery through the real delivery path, without a worker.
    needs: ['POST /api/destinations/:destinationId/test', 'GET /api/destinations/:destinationId/deliveries'],
    async make(side) {
      const destination = await resource(side, 'destination');
      created(await side.org.post(`/api/destinations/${destination}/test`), 'test delivery');
      const listed = await side.org.get(`/api/destinations/${destination}/deliveries`);
      const deliveries = (listed.body?.deliveries ?? listed.body) as Array<{ id: string }>;
      if (!deliveries?.[0]) throw new Error(`no delivery was listed after a test: ${JSON.stringify(listed.body)}`);
      return String(deliveries[0].id);
    },
  },
  appUser: {
    needs: ['POST /api/identify'],
    async make(side) {
      const project = await resource(side, 'project');
      created(await side.org.post('/api/identify', { project, user_id: side.mark, properties: {} }), 'user');
      return side.mark;
    },
  },
  key: {
    needs: [],
    async make(side) {
      return (await createKey({ ctx: side.org.ctx, input: undefined })).id;
    },
  },
  member: {
    needs: [],
    async make(side) {
      const email = `member-${crypto.randomUUID()}@example.test`;
      const input = { organizationId: side.org.id, email, password: PASSWORD, role: 'member' as const };
      return (await createUser({ ctx: t.operator, input })).id;
    },
  },
};

function resource(side: Side, kind: Kind): Promise<string> {
  let made = side.made.get(kind);
  if (!made) {
    made = FIXTURES[kind].make(side);
    side.made.set(kind, made);
  }
  return made;
}

const PASSWORD = 'security suite password';

/** A dashboard session of the side's organization, or null while sign-in does not exist. */
function sessionOf(side: Side): Promise<Credential | null> {
  side.session ??= (async () => {
    if (!isRegistered('POST /api/session')) return null;
    const email = `security-${crypto.randomUUID()}@example.test`;
    await createUser({ ctx: t.operator, input: { organizationId: side.org.id, email, password: PASSWORD } });
    const reply = await send('POST', '/api/session', {}, { email, password: PASSWORD });
    const setCookie = [reply.headers['set-cookie'] ?? []].flat().map(String);
    const cookie = setCookie.map((line) => line.split(';')[0]!).join('; ');
    if (reply.status !== 200 || !cookie) throw new Error(`signing in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return { cookie, csrfToken: String(reply.body.csrfToken ?? '') };
  })();
  return side.session;
}

/** A signed-in session of a person with the member role in the side's organization. */
async function memberSessionOf(side: Side): Promise<Credential> {
  const email = `security-member-${crypto.randomUUID()}@example.test`;
  await createUser({ ctx: t.operator, input: { organizationId: side.org.id, email, password: PASSWORD, role: 'member' } });
  const reply = await send('POST', '/api/session', {}, { email, password: PASSWORD });
  const cookie = [reply.headers['set-cookie'] ?? []].flat().map((line) => String(line).split(';')[0]!).join('; ');
  if (reply.status !== 200 || !cookie) throw new Error(`signing in as a member failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { cookie, csrfToken: String(reply.body.csrfToken) };
}

async function credentialOf(side: Side, plan: Plan): Promise<Credential | null> {
  return plan.credential === 'session' ? sessionOf(side) : { key: side.org.key };
}

function pushSubscription() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.test/send/${crypto.randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}

/** Receives the deliveries the fixtures cause (destination tests and replays). */
const receiver = { url: '', server: undefined as http.Server | undefined };
before(async () => {
  receiver.server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/receive`;
});
after(async () => {
  receiver.server?.closeAllConnections();
  await new Promise((resolve) => receiver.server?.close(resolve));
});

// ---------------------------------------------------------------------------------------------
// What a route needs to be called, and what it names

interface Scope {
  plan: Plan;
  /** Path parameters with the kind each one names. */
  params: Array<{ name: string; kind: Kind }>;
  /** Why the suite cannot check this route; the developer must add a FIXTURE or a PLAN. */
  problem?: string;
  /** Why the check must wait (a fixture's route is not registered yet). */
  pending?: string;
}

let openApi: { paths?: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> } | undefined;

async function documented(route: Route) {
  openApi ??= (await send('GET', '/api/openapi.json', {})).body;
  return openApi?.paths?.[route.url.replace(PARAM, '{$1}')]?.[route.method.toLowerCase()];
}

async function scopeOf(route: Route): Promise<Scope> {
  const key = routeKey(route);
  const planned = PLANS[key];
  const plan = planned ?? {};
  const params: Scope['params'] = [];
  for (const name of paramsOf(route.url)) {
    const kind = kindOf(name, route.url);
    if (!kind) {
      return {
        plan,
        params,
        problem:
          `${key}: the security suite has no fixture for the path parameter :${name}. Add it to PARAM_KINDS ` +
          '(and a FIXTURES entry that creates such a resource) in test/security/routes.test.ts, so that ' +
          'the 404-across-organizations check covers this route.',
      };
    }
    params.push({ name, kind });
  }
  if (!planned) {
    const operation = await documented(route);
    const takesProject =
      operation?.parameters?.some((p) => p.in === 'query' && p.name === 'project') ||
      operation?.requestBody?.content?.['application/json']?.schema?.properties?.project !== undefined;
    if (takesProject || (operation?.requestBody && params.length > 0)) {
      return {
        plan,
        params,
        problem: `${key}: takes a project or a request body; add a PLANS entry in test/security/routes.test.ts that says how to call it.`,
      };
    }
  }
  const kinds = new Set<Kind>(params.map((p) => p.kind));
  if (plan.project) kinds.add('project');
  const missing = [...kinds].flatMap((kind) => FIXTURES[kind].needs.filter((need) => !isRegistered(need)));
  return { plan, params, pending: missing.length ? `needs ${missing.join(', ')}, not registered yet` : undefined };
}

/** The URL and body of a request that names, for each scope input, the resource of `owners[i]`. */
async function requestNaming(route: Route, scope: Scope, owners: Side[]): Promise<{ url: string; body?: unknown }> {
  const ids: Record<string, string> = {};
  for (const [i, { name, kind }] of scope.params.entries()) ids[name] = await resource(owners[i]!, kind);
  if (scope.plan.project) ids.project = await resource(owners[scope.params.length]!, 'project');
  let url = fill(route.url, ids);
  if (scope.plan.project === 'query') url += `?project=${encodeURIComponent(ids.project!)}`;
  const body = scope.plan.body?.(owners[0]!, ids) ?? (route.method === 'GET' ? undefined : scope.plan.project === 'body' ? {} : undefined);
  return { url, body };
}

async function call(route: Route, scope: Scope, credential: Credential, request: { url: string; body?: unknown }) {
  const headers = headersFor(credential, route.method);
  return scope.plan.stream ? sendStreaming(route.method, request.url, headers) : send(route.method, request.url, headers, request.body);
}

const inputCount = (scope: Scope) => scope.params.length + (scope.plan.project ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// The checks

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
      await waitUntil('the revocation to reach the other server through the bus', async () => (await status(other.app)) === 401, 5_000);
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

describe("owner-only routes", () => {
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

  it('answers 404 {error} when an organization names another organization\'s resource; the owner succeeds', async (tc) => {
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
        assert.equal(crossed.status, 404, `another organization's resource must be 404 (never 403 or 2xx), got ${crossed.status} ${JSON.stringify(crossed.body)}`);
        assertErrorBody(crossed, 'another organization');

        // With several ids, each one of B's in turn among A's own (e.g. B's delivery under A's destination).
        if (inputs > 1) {
          for (let i = 0; i < inputs; i++) {
            const owners = Array.from({ length: inputs }, (_, j) => (j === i ? b : a));
            const mixed = await call(route, scope!, asA, await requestNaming(route, scope!, owners));
            assert.equal(mixed.status, 404, `input ${i + 1} of ${inputs} from another organization: got ${mixed.status} ${JSON.stringify(mixed.body)}`);
            assertErrorBody(mixed, 'a mixed request');
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
      for (const url of ['/api/security-test/throws', '/api/security-test/database', '/api/security-test/status', '/api/security-test/string', '/api/security-test/response-schema', '/healthz-security-test']) {
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

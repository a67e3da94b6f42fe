import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import { inviteMember } from '../../src/features/members/inviteMember.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { type Reply, type TestApp, type TestOrg, useTestApp } from '../helpers.ts';

/**
 * The shared security suite's fixtures and helpers (routes.test.ts and scopes.test.ts use them).
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

/**
 * The app the suite's helpers call, set by each file's `useRouteSuite()`: a file of its own makes
 * its own (files share one process, and this module, under `npm test`; decision 231).
 */
export let t: TestApp;

export function useRouteSuite(): TestApp {
  t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });
  listening = undefined;
  useReceiver();
  return t;
}

// ---------------------------------------------------------------------------------------------
// What the suite knows about the routes

export type Kind = 'project' | 'event' | 'insight' | 'hook' | 'destination' | 'delivery' | 'key' | 'appUser' | 'member' | 'alert' | 'invitation' | 'group';

/** Path parameter name → the kind of resource it names. */
export const PARAM_KINDS: Record<string, Kind> = {
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
  invitationId: 'invitation',
  groupId: 'group',
};

const ALERT_CONDITION = { count: 'atLeast', threshold: 5, windowSeconds: 60 };

export function kindOf(param: string, url: string): Kind | undefined {
  if (param === 'id' && url.startsWith('/api/destinations/')) return 'destination';
  return PARAM_KINDS[param];
}

export interface Plan {
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
  /** A batch: a refused item's answer is `{error, index}`, naming the item (extensions.md, "Batch ingestion"). */
  itemIndex?: true;
}

/**
 * How to call every route of the specification (product spec, operations.md, the dashboard).
 * Entries whose route is not registered are reported as skipped; registered routes without an
 * entry are still checked when the suite can build their request itself (no body needed).
 */
export const PLANS: Record<string, Plan> = {
  'GET /api/projects': {},
  'POST /api/projects': { body: (side) => ({ name: side.mark }) },
  'POST /api/events': { project: 'body', body: (side, ids) => ({ project: ids.project, category: 'security', title: side.mark }) },
  'POST /api/events/batch': {
    project: 'body',
    itemIndex: true,
    body: (side, ids) => ({ events: [{ project: ids.project, category: 'security', title: side.mark }] }),
  },
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
  'PATCH /api/hooks/:hookId': { body: (side) => ({ name: side.mark }) },
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
  // A key's projects are body references: another organization's and one that exists nowhere answer alike.
  'POST /api/keys': { credential: 'session', owner: true, project: 'body', body: (_side, ids) => ({ projects: [ids.project] }) },
  'POST /api/keys/:keyId/revoke': { credential: 'session', owner: true },
  'GET /api/organization': {},
  'GET /api/members': { credential: 'session', owner: true },
  'POST /api/invitations': { credential: 'session', owner: true, body: () => ({ email: `invited-${crypto.randomUUID()}@example.test`, role: 'member' }) },
  'GET /api/invitations': { credential: 'session', owner: true },
  'POST /api/invitations/:invitationId/revoke': { credential: 'session', owner: true },
  'POST /api/invitations/:invitationId/resend': { credential: 'session', owner: true },
  'POST /api/members/:memberId/role': { credential: 'session', owner: true, body: () => ({ role: 'member' }) },
  'POST /api/members/:memberId/delete': { credential: 'session', owner: true },
  'GET /api/session': { credential: 'session' },
  'GET /api/me/digest': { credential: 'session' },
  'PUT /api/me/digest': { credential: 'session', body: () => ({ frequency: 'off', hour: 8, timeZone: 'UTC' }) },
  'POST /api/me/digest/send': { credential: 'session' },
  // The same password again: the suite's later requests sign in with it.
  'POST /api/me/password': { credential: 'session', body: () => ({ currentPassword: PASSWORD, newPassword: PASSWORD }) },
  'GET /api/me/notifications': { credential: 'session' },
  'PUT /api/me/notifications': { credential: 'session', body: () => ({ quietHours: null }) },
  'GET /api/push/vapid-public-key': {},
  'POST /api/projects/:projectId/push-subscriptions': { credential: 'session', body: () => pushSubscription() },
  'PATCH /api/projects/:projectId': { body: (side) => ({ name: side.mark }) },
  'POST /api/identify': { project: 'body', body: (side, ids) => ({ project: ids.project, user_id: side.mark, properties: { mark: side.mark } }) },
  'POST /api/funnels': { project: 'body', body: (_side, ids) => ({ project: ids.project, steps: [{ category: 'security' }, {}] }) },
  'GET /api/users': { project: 'query' },
  'POST /v1/identify': { project: 'body', body: (side, ids) => ({ project: ids.project, user_id: side.mark, properties: { mark: side.mark } }) },
  'GET /api/users/:userId': { project: 'query' },
  'GET /api/users/:userId/activity': { project: 'query' },
  'POST /api/push-subscriptions/delete': { body: () => ({ endpoint: 'https://push.example.test/send/unknown' }) },
  'POST /api/projects/:projectId/delete': {},
  'PATCH /api/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: { $inc: 1 } }) },
  'POST /v1/log': { project: 'body', body: (side, ids) => ({ project: ids.project, channel: 'security', event: side.mark }) },
  'POST /v1/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: 1 }) },
  'GET /api/audit': { owner: true },
  'PATCH /v1/insight': { project: 'body', body: (side, ids) => ({ project: ids.project, title: side.mark, value: { $inc: 1 } }) },
  'POST /api/group': {
    project: 'body',
    body: (side, ids) => ({ project: ids.project, group_id: side.mark, user_id: side.mark, properties: { mark: side.mark } }),
  },
  'POST /v1/group': {
    project: 'body',
    body: (side, ids) => ({ project: ids.project, group_id: side.mark, user_id: side.mark, properties: { mark: side.mark } }),
  },
  'GET /api/groups': { project: 'query' },
  'GET /api/groups/:groupId': { project: 'query' },
  'DELETE /api/groups/:groupId': { project: 'query' },
  'GET /api/users/:userId/groups': { project: 'query' },
};

/** /api routes that answer without credentials, on purpose. */
export const PUBLIC_API_ROUTES = new Set([
  'GET /api/openapi.json', // the API description
  'GET /api/setup', // whether first-run setup is offered
  'POST /api/setup', // first-run setup (only while there is no user)
  'POST /api/session', // sign-in
  'POST /api/session/delete', // sign-out (checks the session's CSRF token itself)
  'POST /api/invitations/accept', // the invitation token in the body is the credential
  'POST /api/invitations/preview', // the accept page's preview: the token in the body is the credential; reads only
  'POST /api/password-reset', // asked for from the sign-in page; answers alike for any email
  'POST /api/password-reset/confirm', // the reset token in the body is the credential
  'POST /api/password-reset/preview', // the reset token in the body is the credential
  'GET /api/oidc/start', // sign-in with OpenID Connect: redirects to the identity provider
  'GET /api/oidc/callback', // the identity provider's answer is the credential
  'GET /api/oidc/choices', // the sealed choice cookie (a vouched-for email) is the credential; 401 without it
  'POST /api/oidc/choices/:invitationId/accept', // the sealed choice cookie is the credential; 401 without it, 404 for another email's invitation
]);

/** Routes outside /api are never authenticated (auth.ts): only these may exist. */
export const UNAUTHENTICATED_PATHS = [
  /^\*$/ /* CORS preflights of browser keys (http/browserCors.ts) */,
  /^\/$/,
  /^\/healthz$/,
  /^\/livez$/,
  /^\/hook\/:token$/,
  /^\/app$/,
  /^\/app\/\*$/,
];

// ---------------------------------------------------------------------------------------------
// Routes, requests and replies

export interface Route {
  method: string;
  url: string;
  public: boolean;
}

export const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

export function routes(): Route[] {
  const seen = new Map<string, Route>();
  for (const route of t.app.routeTable) seen.set(routeKey(route), route);
  return [...seen.values()];
}

/** /v1/ holds the LogSnag-compatible routes, authenticated like /api/ (auth.ts). */
export const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/v1/');
export const authenticatedApiRoutes = () => routes().filter((r) => isApiPath(r.url) && !r.public);

export const PARAM = /:([A-Za-z0-9_]+)(?:\([^)]*\))?/g;
export const paramsOf = (url: string) => [...url.matchAll(PARAM)].map((m) => m[1]!);
export const fill = (url: string, values: Record<string, string>) => url.replace(PARAM, (_, name: string) => encodeURIComponent(values[name] ?? 'x1'));

export type Credential = { key: string } | { cookie: string; csrfToken: string };

export function headersFor(credential: Credential | undefined, method: string): Record<string, string> {
  if (!credential) return {};
  if ('key' in credential) return { authorization: `Bearer ${credential.key}` };
  return { cookie: credential.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': credential.csrfToken }) };
}

export const REPLY_TIMEOUT_MS = 15_000;

/** One request through inject, failing clearly instead of hanging when a route never answers. */
export async function send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method} ${url} did not answer within ${REPLY_TIMEOUT_MS} ms`)), REPLY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([t.request({ method: method as 'GET', url, headers, ...(body === undefined ? {} : { body }) }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export let listening: string | undefined;

/** A streaming route over real HTTP: its status, and its body unless it is an open stream. */
export async function sendStreaming(method: string, url: string, headers: Record<string, string>): Promise<Pick<Reply, 'status' | 'body' | 'headers'>> {
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

/** `itemIndex`: the refusal of a batch's item, `{error, index}` (Plan.itemIndex). */
export function assertErrorBody(reply: Pick<Reply, 'status' | 'body' | 'headers'>, label: string, { itemIndex = false } = {}): void {
  assert.match(String(reply.headers['content-type'] ?? ''), /^application\/json/, `${label}: content-type`);
  assert.ok(reply.body && typeof reply.body === 'object', `${label}: a JSON body, got ${JSON.stringify(reply.body)}`);
  const fields = itemIndex ? ['error', 'index'] : ['error'];
  assert.deepEqual(Object.keys(reply.body), fields, `${label}: the body is exactly {${fields.join(', ')}}, got ${JSON.stringify(reply.body)}`);
  if (itemIndex) assert.ok(Number.isInteger(reply.body.index) && reply.body.index >= 0, `${label}: index is the item's place`);
  assert.equal(typeof reply.body.error, 'string', `${label}: error is a string`);
  assert.ok(reply.body.error.length > 0, `${label}: error says something`);
}

// ---------------------------------------------------------------------------------------------
// Fixtures: resources of one organization, made through the public API where it exists

/** An organization the suite acts as, with the resources it made so far. */
export interface Side {
  org: TestOrg;
  /** In the name of everything this side makes, so a leak is easy to spot in any reply. */
  mark: string;
  made: Map<Kind, Promise<string>>;
  session?: Promise<Credential | null>;
}

export async function newSide(label: string): Promise<Side> {
  return { org: await t.org(), mark: `${label}-secret-${crypto.randomBytes(6).toString('hex')}`, made: new Map() };
}

/** An id of the same shape as `id` that names nothing: another integer, or its characters shifted within their alphabet. */
export function ghostId(id: string): string {
  if (/^\d+$/.test(id)) return String(Number(id) + 1_000_000);
  const alphabet = /^[0-9a-f]+$/.test(id) ? '0123456789abcdef' : '0123456789abcdefghijklmnopqrstuvwxyz';
  return [...id]
    .map((c) => {
      const at = alphabet.indexOf(c.toLowerCase());
      if (at < 0) return c;
      const shifted = alphabet[(at + 7) % alphabet.length]!;
      return c === c.toLowerCase() ? shifted : shifted.toUpperCase();
    })
    .join('');
}

/**
 * A side whose resources exist nowhere: ids shaped like `side`'s, that no organization holds.
 * Naming them must answer exactly as naming another organization's (extensions.md: a record of
 * another organization does not exist for the caller), so no answer tells them apart.
 */
export async function ghostOf(side: Side, kinds: Kind[]): Promise<Side> {
  const made = new Map<Kind, Promise<string>>();
  for (const kind of kinds) made.set(kind, Promise.resolve(ghostId(await resource(side, kind))));
  return { org: side.org, mark: side.mark, made };
}

export const isRegistered = (key: string) => routes().some((r) => routeKey(r) === key);

export function created(reply: Reply, what: string): Record<string, unknown> {
  if (reply.status >= 300) throw new Error(`making a ${what} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as Record<string, unknown>;
}

export interface Fixture {
  /** Routes the fixture needs; while one is missing, the routes that need the fixture are skipped. */
  needs: string[];
  make(side: Side): Promise<string>;
}

export const FIXTURES: Record<Kind, Fixture> = {
  alert: {
    needs: ['POST /api/projects/:projectId/alerts'],
    async make(side) {
      const project = await resource(side, 'project');
      return String(created(await side.org.post(`/api/projects/${project}/alerts`, { name: side.mark, condition: ALERT_CONDITION }), 'alert').id);
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
      return String(created(await side.org.post(`/api/projects/${project}/hooks`, { name: side.mark, category: 'security' }), 'hook').id);
    },
  },
  destination: {
    needs: ['POST /api/projects/:projectId/destinations'],
    async make(side) {
      const project = await resource(side, 'project');
      const body = { name: side.mark, url: receiver.url, format: 'json' };
      return String(created(await side.org.post(`/api/projects/${project}/destinations`, body), 'destination').id);
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
  group: {
    needs: ['POST /api/group'],
    async make(side) {
      const project = await resource(side, 'project');
      created(await side.org.post('/api/group', { project, group_id: side.mark, user_id: side.mark, properties: {} }), 'group');
      return side.mark;
    },
  },
  key: {
    needs: [],
    async make(side) {
      return (await createKey({ ctx: side.org.ctx, input: undefined })).id;
    },
  },
  invitation: {
    // Made by the verb: the route takes an owner's session, which the fixtures do not hold.
    needs: [],
    async make(side) {
      return (await inviteMember({ ctx: side.org.ctx, input: { email: `invited-${crypto.randomUUID()}@example.test`, role: 'member' } })).id;
    },
  },
  member: {
    needs: [],
    async make(side) {
      const email = `member-${crypto.randomUUID()}@example.test`;
      const input = { organizationId: side.org.id, email, password: PASSWORD, role: 'member' as const };
      return (await createAccount({ ctx: t.operator, input })).id;
    },
  },
};

export function resource(side: Side, kind: Kind): Promise<string> {
  let made = side.made.get(kind);
  if (!made) {
    made = FIXTURES[kind].make(side);
    side.made.set(kind, made);
  }
  return made;
}

export const PASSWORD = 'security suite password';

/** A dashboard session of the side's organization, or null while sign-in does not exist. */
export function sessionOf(side: Side): Promise<Credential | null> {
  side.session ??= (async () => {
    if (!isRegistered('POST /api/session')) return null;
    const email = `security-${crypto.randomUUID()}@example.test`;
    await createAccount({ ctx: t.operator, input: { organizationId: side.org.id, email, password: PASSWORD } });
    const reply = await send('POST', '/api/session', {}, { email, password: PASSWORD });
    const setCookie = [reply.headers['set-cookie'] ?? []].flat().map(String);
    const cookie = setCookie.map((line) => line.split(';')[0]!).join('; ');
    if (reply.status !== 200 || !cookie) throw new Error(`signing in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return { cookie, csrfToken: String(reply.body.csrfToken ?? '') };
  })();
  return side.session;
}

/** A signed-in session of a person with the member role in the side's organization. */
export async function memberSessionOf(side: Side): Promise<Credential> {
  const email = `security-member-${crypto.randomUUID()}@example.test`;
  await createAccount({ ctx: t.operator, input: { organizationId: side.org.id, email, password: PASSWORD, role: 'member' } });
  const reply = await send('POST', '/api/session', {}, { email, password: PASSWORD });
  const cookie = [reply.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => String(line).split(';')[0]!)
    .join('; ');
  if (reply.status !== 200 || !cookie) throw new Error(`signing in as a member failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { cookie, csrfToken: String(reply.body.csrfToken) };
}

export async function credentialOf(side: Side, plan: Plan): Promise<Credential | null> {
  return plan.credential === 'session' ? sessionOf(side) : { key: side.org.key };
}

export function pushSubscription() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.test/send/${crypto.randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}

/** Receives the deliveries the fixtures cause (destination tests and replays); useRouteSuite starts it. */
export const receiver = { url: '', server: undefined as http.Server | undefined };

function useReceiver(): void {
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
}

// ---------------------------------------------------------------------------------------------
// What a route needs to be called, and what it names

export interface Scope {
  plan: Plan;
  /** Path parameters with the kind each one names. */
  params: Array<{ name: string; kind: Kind }>;
  /** Why the suite cannot check this route; the developer must add a FIXTURE or a PLAN. */
  problem?: string;
  /** Why the check must wait (a fixture's route is not registered yet). */
  pending?: string;
}

export let openApi:
  | {
      paths?: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ in: string; name: string }>;
            requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
          }
        >
      >;
    }
  | undefined;

export async function documented(route: Route) {
  openApi ??= (await send('GET', '/api/openapi.json', {})).body;
  return openApi?.paths?.[route.url.replace(PARAM, '{$1}')]?.[route.method.toLowerCase()];
}

export async function scopeOf(route: Route): Promise<Scope> {
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
export async function requestNaming(route: Route, scope: Scope, owners: Side[]): Promise<{ url: string; body?: unknown }> {
  const ids: Record<string, string> = {};
  for (const [i, { name, kind }] of scope.params.entries()) ids[name] = await resource(owners[i]!, kind);
  if (scope.plan.project) ids.project = await resource(owners[scope.params.length]!, 'project');
  let url = fill(route.url, ids);
  if (scope.plan.project === 'query') url += `?project=${encodeURIComponent(ids.project!)}`;
  const body = scope.plan.body?.(owners[0]!, ids) ?? (route.method === 'GET' ? undefined : scope.plan.project === 'body' ? {} : undefined);
  return { url, body };
}

export async function call(route: Route, scope: Scope, credential: Credential, request: { url: string; body?: unknown }) {
  const headers = headersFor(credential, route.method);
  return scope.plan.stream ? sendStreaming(route.method, request.url, headers) : send(route.method, request.url, headers, request.body);
}

export const inputCount = (scope: Scope) => scope.params.length + (scope.plan.project ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// The checks

import { after, before } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Ctx, type InstallationCtx, OPERATOR, type Services } from '../src/context.ts';
import { type Sql, createClient } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { syncChartTimeZone } from '../src/features/charts/syncChartTimeZone.ts';
import { createKey } from '../src/features/keys/createKey.ts';
import { createOrganization } from '../src/features/organizations/createOrganization.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/services.ts';
import { type OwnDatabase, createOwnDatabase } from './ownDatabase.ts';

export interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

/** A fresh organization with one API key, and a client that sends that key. */
export interface TestOrg {
  id: string;
  key: string;
  keyId: string;
  ctx: Ctx;
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** A project of this organization, made through the API. */
  project(name?: string): Promise<string>;
}

export interface TestApp {
  app: App;
  services: Services;
  /** Whether this file has a database of its own (useTestApp's `ownDatabase`). */
  ownDatabase: boolean;
  /** The database the app uses: the file's own, or the test runner's. */
  databaseUrl: string;
  /** The installation's operator, as the command line acts: for making organizations and users. */
  operator: InstallationCtx;
  org(options?: { monthlyEventCap?: number | null }): Promise<TestOrg>;
  request(options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
    url: string;
    body?: unknown;
    payload?: string | Buffer;
    headers?: Record<string, string>;
  }): Promise<Reply>;
}

function toReply(raw: LightMyRequestResponse): Reply {
  let body: unknown = raw.body;
  if (String(raw.headers['content-type'] ?? '').includes('application/json') && raw.body.length > 0) body = raw.json();
  return { status: raw.statusCode, body, headers: raw.headers, raw };
}

/**
 * One application per test file, on the database the test runner provides (DATABASE_URL),
 * closed after the file's tests. Every test makes its own organization with `t.org()`.
 * `ownDatabase` gives the file a fresh database on the same server instead, dropped at the end:
 * for files that run the delivery worker, which takes every organization's work.
 */
export function useTestApp(
  env: NodeJS.ProcessEnv = {},
  options: { ownDatabase?: boolean; onQuery?: (query: string, parameters: unknown[]) => void } = {},
): TestApp {
  const state = {} as { app: App; services: Services; close: () => Promise<void>; own?: OwnDatabase; databaseUrl: string };

  before(async () => {
    const serverUrl = loadConfig({ ...process.env, ...env }).databaseUrl;
    if (!serverUrl) throw new Error('Run the tests with `npm test`: it provides DATABASE_URL');
    if (options.ownDatabase) state.own = await createOwnDatabase(serverUrl, { migrated: true });
    const config = loadConfig({ ...process.env, ...env, DATABASE_URL: state.own?.url ?? serverUrl });
    if (!config.databaseUrl) throw new Error('Run the tests with `npm test`: it provides DATABASE_URL');
    state.databaseUrl = config.databaseUrl;
    const sql = createClient(config.databaseUrl, { timeZone: config.timeZone, max: 8, onQuery: options.onQuery });
    await migrate(sql);
    await syncChartTimeZone(sql, config.timeZone);
    const { services, close } = await createServices(config, sql, createLogger(process.env.LOG_LEVEL ?? 'silent'));
    state.services = services;
    state.app = await buildApp({ services });
    await state.app.ready();
    state.close = async () => {
      await state.app.close();
      await close();
      await sql.end({ timeout: 5 });
    };
  });
  after(async () => {
    try {
      await state.close?.();
    } finally {
      await state.own?.drop();
    }
  });

  const request: TestApp['request'] = async ({ method, url, body, payload, headers = {} }) => {
    const raw = await state.app.inject({
      method,
      url,
      headers: body !== undefined && payload === undefined ? { 'content-type': 'application/json', ...headers } : headers,
      payload: payload ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    return toReply(raw);
  };

  return {
    get app() {
      return state.app;
    },
    get services() {
      return state.services;
    },
    ownDatabase: options.ownDatabase ?? false,
    get databaseUrl() {
      return state.databaseUrl;
    },
    get operator() {
      return { services: state.services, actor: OPERATOR };
    },
    request,
    async org(options = {}) {
      const organization = await createOrganization({
        ctx: { services: state.services, actor: OPERATOR },
        input: { name: `test-${Date.now()}`, monthlyEventCap: options.monthlyEventCap ?? null },
      });
      const ctx: Ctx = { services: state.services, organizationId: organization.id, actor: OPERATOR };
      const created = await createKey({ ctx, input: undefined });
      const auth = { authorization: `Bearer ${created.key}` };
      const org: TestOrg = {
        id: organization.id,
        key: created.key,
        keyId: created.id,
        ctx: { ...ctx, actor: { kind: 'key', keyId: created.id } },
        get: (url, headers = {}) => request({ method: 'GET', url, headers: { ...auth, ...headers } }),
        post: (url, body, headers = {}) => request({ method: 'POST', url, body, headers: { ...auth, ...headers } }),
        async project(name = 'Test project') {
          const reply = await org.post('/api/projects', { name });
          if (reply.status !== 201) throw new Error(`creating a project failed: ${reply.status} ${JSON.stringify(reply.body)}`);
          return reply.body.id as string;
        },
      };
      return org;
    },
  };
}

/**
 * Holds an organization's event counter row locked from another connection (as an import does),
 * so that a write of its events waits until `release`. Released after 10 s whatever happens, so a
 * test that waits on it fails instead of hanging.
 */
export async function holdEventCounter(sql: Sql, organizationId: string): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 10_000).unref();
  });
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = sql.begin(async (tx) => {
    await tx`SELECT last_id FROM id_counters WHERE organization_id = ${organizationId} AND kind = 'event' FOR UPDATE`;
    locked();
    await held;
  });
  await lockTaken;
  return {
    async release() {
      release();
      await holder;
    },
  };
}

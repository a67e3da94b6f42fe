import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createClient } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createLogger } from '../../src/logger.ts';
import { searchDocument } from '../../src/db/eventExpressions.ts';
import { blockWords } from '../../src/features/events/searchWords.ts';
import { SearchIndexer } from '../../src/features/events/searchIndexer.ts';
import { createServices } from '../../src/services.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';

/**
 * 040_tenant_keys.sql rebuilds every tenant table of an existing installation. This file builds
 * an installation in the schema before 040 with plain SQL (no application code, which follows
 * the schema it is written for), runs the migration, and checks with SQL that every row kept its
 * ids and columns and landed in its organization. It runs on the PostgreSQL of each test pass
 * (DATABASE_URL), in a database of its own that it drops at the end.
 */

const MIGRATION = '040_tenant_keys.sql';
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations');

const databaseUrl = process.env.DATABASE_URL;
const skip = !databaseUrl && 'DATABASE_URL is not set: run the tests with `npm test`';

/** Plaintext credentials whose SHA-256 is stored, so the API checks below can present them. */
const keys = {
  a: `ev_${'a'.repeat(8)}-aaaa-aaaa-aaaa-${'a'.repeat(12)}`,
  aRevoked: `ev_${'r'.repeat(8)}-rrrr-rrrr-rrrr-${'r'.repeat(12)}`,
  b: `ev_${'b'.repeat(8)}-bbbb-bbbb-bbbb-${'b'.repeat(12)}`,
};
const hookTokens = { a: `whk_${'a'.repeat(32)}`, b: `whk_${'b'.repeat(32)}` };
const sessionTokens = { a: 'session-token-a', b: 'session-token-b' };
const sha256Hex = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** The json text of some events, exactly as a client sent it: spacing, key order, duplicate keys. */
const TAGS_1 = '{"plan":"pro", "a":1,"z" : [1, 2]}';
const METADATA_1 = '{"z":1,"a":{"y":2,"b":3}}';
const TAGS_4 = '{"zz":"1","aa":"2","zz":"3"}';
const METADATA_4 = '[3,1,2]';

/**
 * Organizations A and B share the installation-wide id sequences, so their event ids interleave
 * (A: 1, 3, 5, 7; B: 2, 4, 6), as do insight ids (A: 1, 3; B: 2, 4). Event 7 is deleted again,
 * but a delivery and its attempts (the log outlives a deleted event) still name it.
 * Organization C has a project and a user but no events.
 */
const OLD_SCHEMA_DATA = `
INSERT INTO organizations (id, name, monthly_event_cap, created_at) VALUES
  ('org_a', 'Org A', 1000, '2024-01-01 10:00:00.123456+00'),
  ('org_b', 'Org B', NULL, '2024-01-02 10:00:00+00'),
  ('org_c', 'Org C', 0,    '2024-01-03 10:00:00+00');

INSERT INTO users (id, organization_id, email, password_hash, created_at) VALUES
  ('usr_a1', 'org_a', 'Alice@Example.COM', 'scrypt$a', '2024-01-01 11:00:00+00'),
  ('usr_a2', 'org_a', 'dave@example.com', 'scrypt$d', '2024-01-01 12:00:00+00'),
  ('usr_b1', 'org_b', 'bob@example.com', 'scrypt$b', '2024-01-02 11:00:00+00'),
  ('usr_c1', 'org_c', 'Carol@EXAMPLE.com', 'scrypt$c', '2024-01-03 11:00:00+00');

INSERT INTO projects (id, organization_id, name, created_at) VALUES
  ('prj_a1', 'org_a', 'Shop', '2024-02-01 00:00:00+00'),
  ('prj_a2', 'org_a', 'Ops', '2024-02-02 00:00:00+00'),
  ('prj_b1', 'org_b', 'Shop', '2024-02-01 00:00:00+00'),
  ('prj_c1', 'org_c', 'Empty', '2024-02-03 00:00:00+00');

INSERT INTO categories (project_id, name, created_at) VALUES
  ('prj_a1', 'signup', '2024-05-01 09:00:00+00'),
  ('prj_a1', 'payment', '2024-05-01 09:30:00+00'),
  ('prj_a2', 'deploy', '2024-05-02 09:00:00+00'),
  ('prj_b1', 'signup', '2024-05-01 09:00:00+00');

-- No explicit ids: the identity sequence hands them out in this order.
INSERT INTO events (project_id, category, title, description, icon, tags, metadata, url, user_id, notify, favorited, created_at)
  VALUES ('prj_a1', 'signup', 'User signed up', 'from the landing page', '🎉', '${TAGS_1}', '${METADATA_1}',
          'https://a.example/u/1', 'u-1', true, false, '2024-05-01 09:00:00.000001+00');
INSERT INTO events (project_id, category, title, created_at) VALUES ('prj_b1', 'signup', 'B signup', '2024-05-01 09:00:01+00');
INSERT INTO events (project_id, category, title, favorited, created_at)
  VALUES ('prj_a1', 'payment', 'Paid', true, '2024-05-01 09:30:00+00');
INSERT INTO events (project_id, category, title, description, tags, metadata, notify, created_at)
  VALUES ('prj_b1', 'signup', 'B notify', NULL, '${TAGS_4}', '${METADATA_4}', true, '2024-05-01 10:00:00+00');
INSERT INTO events (project_id, category, title, created_at) VALUES ('prj_a2', 'deploy', 'Deployed', '2024-05-02 09:00:00+00');
INSERT INTO events (project_id, category, title, created_at) VALUES ('prj_b1', 'signup', 'B again', '2024-05-02 10:00:00+00');
INSERT INTO events (project_id, category, title, notify, created_at)
  VALUES ('prj_a1', 'payment', 'Refunded, then deleted', true, '2024-05-03 10:00:00+00');

INSERT INTO event_daily_counts (project_id, category, day, count) VALUES
  ('prj_a1', 'signup', '2024-05-01', 1),
  ('prj_a1', 'payment', '2024-05-01', 1),
  ('prj_a1', 'payment', '2024-05-03', 1),
  ('prj_a2', 'deploy', '2024-05-02', 1),
  ('prj_b1', 'signup', '2024-05-01', 2),
  ('prj_b1', 'signup', '2024-05-02', 1);

INSERT INTO insights (project_id, title, value, icon, updated_at) VALUES ('prj_a1', 'MRR', '$1,000', '💰', '2024-05-01 12:00:00+00');
INSERT INTO insights (project_id, title, value, icon, updated_at) VALUES ('prj_b1', 'Users', '42', NULL, '2024-05-01 12:00:01+00');
INSERT INTO insights (project_id, title, value, icon, updated_at) VALUES ('prj_a2', 'Uptime', '99.9%', NULL, '2024-05-01 12:00:02+00');
INSERT INTO insights (project_id, title, value, icon, updated_at) VALUES ('prj_b1', 'MRR', '$5', NULL, '2024-05-01 12:00:03+00');

INSERT INTO notify_outbox (event_id, project_id, created_at) VALUES
  (1, 'prj_a1', '2024-05-01 09:00:00.000001+00'),
  (4, 'prj_b1', '2024-05-01 10:00:00+00'),
  (7, 'prj_a1', '2024-05-03 10:00:00+00');

INSERT INTO api_keys (id, organization_id, key_hash, prefix, created_at, last_used_at, revoked_at) VALUES
  ('key_a', 'org_a', decode('${sha256Hex(keys.a)}', 'hex'), '${keys.a.slice(0, 12)}', '2024-03-01 00:00:00+00', '2024-05-03 00:00:00+00', NULL),
  ('key_ar', 'org_a', decode('${sha256Hex(keys.aRevoked)}', 'hex'), '${keys.aRevoked.slice(0, 12)}', '2024-03-02 00:00:00+00', NULL, '2024-04-01 00:00:00+00'),
  ('key_b', 'org_b', decode('${sha256Hex(keys.b)}', 'hex'), '${keys.b.slice(0, 12)}', '2024-03-01 00:00:00+00', NULL, NULL);

INSERT INTO sessions (id_hash, user_id, organization_id, csrf_token, created_at, expires_at, last_seen_at) VALUES
  (decode('${sha256Hex(sessionTokens.a)}', 'hex'), 'usr_a1', 'org_a', 'csrf-a', '2024-05-01 00:00:00+00', '2024-05-31 00:00:00+00', '2024-05-02 00:00:00+00'),
  (decode('${sha256Hex(sessionTokens.b)}', 'hex'), 'usr_b1', 'org_b', 'csrf-b', '2024-05-01 00:00:00+00', '2024-05-31 00:00:00+00', '2024-05-01 00:00:00+00');

INSERT INTO incoming_hooks (id, project_id, name, category, token_hash, token_sealed, enabled, created_at) VALUES
  ('hook_a', 'prj_a1', 'Stripe', 'payment', decode('${sha256Hex(hookTokens.a)}', 'hex'), 'v1.sealed-a', true, '2024-03-05 00:00:00+00'),
  ('hook_b', 'prj_b1', 'Form', 'signup', decode('${sha256Hex(hookTokens.b)}', 'hex'), 'v1.sealed-b', false, '2024-03-06 00:00:00+00');

INSERT INTO organization_usage (organization_id, month, events) VALUES
  ('org_a', '2024-05-01', 4),
  ('org_b', '2024-04-01', 10),
  ('org_b', '2024-05-01', 3);

INSERT INTO destinations (id, project_id, name, url, format, enabled, secret, last_ok, last_at, last_status, last_error, created_at) VALUES
  ('dst_a', 'prj_a1', 'Slack', 'https://hooks.a.example/x', 'json', true, 'whsec_c2VjcmV0', true, '2024-05-03 10:00:05.5+00', 200, NULL, '2024-03-10 00:00:00+00'),
  ('dst_b', 'prj_b1', 'Discord', 'https://hooks.b.example/y', 'embed', false, NULL, false, '2024-05-01 10:00:09+00', 500, 'HTTP 500', '2024-03-11 00:00:00+00');

INSERT INTO deliveries (id, destination_id, event_id, webhook_id, body, status, attempts, max_attempts, next_attempt_at, locked_until, lease_token, created_at) VALUES
  ('dlv_a1', 'dst_a', 1, 'msg_a1', '{"id":1}', 'succeeded', 1, 8, NULL, NULL, NULL, '2024-05-01 09:00:01+00'),
  ('dlv_a7', 'dst_a', 7, 'msg_a7', '{"id":7}', 'failed', 2, 2, NULL, NULL, NULL, '2024-05-03 10:00:01+00'),
  ('dlv_b4', 'dst_b', 4, 'msg_b4', 'B notify', 'pending', 1, 8, '2024-05-01 10:05:00+00', '2024-05-01 10:01:00+00', 'lease-1', '2024-05-01 10:00:01+00');

INSERT INTO delivery_attempts (delivery_id, attempt, at, status, duration_ms, error, response) VALUES
  ('dlv_a1', 1, '2024-05-01 09:00:02+00', 200, 35, NULL, 'ok'),
  ('dlv_a7', 1, '2024-05-03 10:00:02+00', NULL, 10000, 'timeout', NULL),
  ('dlv_a7', 2, '2024-05-03 10:00:05.5+00', 410, 12, NULL, 'gone'),
  ('dlv_b4', 1, '2024-05-01 10:00:09+00', 500, 80, 'HTTP 500', 'oops');

INSERT INTO push_subscriptions (id, project_id, user_id, endpoint, p256dh, auth, created_at) VALUES
  ('ps_a', 'prj_a1', 'usr_a1', 'https://push.example/a', 'p256-a', 'auth-a', '2024-04-01 00:00:00+00'),
  ('ps_b', 'prj_b1', 'usr_b1', 'https://push.example/b', 'p256-b', 'auth-b', '2024-04-02 00:00:00+00');

INSERT INTO push_jobs (id, subscription_id, event_id, payload, attempts, max_attempts, next_attempt_at, locked_until, lease_token, created_at) VALUES
  ('pj_a', 'ps_a', 1, '{"title":"User signed up"}', 0, 5, '2024-05-01 09:00:01+00', NULL, NULL, '2024-05-01 09:00:01+00'),
  ('pj_b', 'ps_b', 4, '{"title":"B notify"}', 2, 5, '2024-05-01 10:10:00+00', '2024-05-01 10:02:00+00', 'lease-2', '2024-05-01 10:00:01+00');

INSERT INTO settings (key, value) VALUES
  ('chart_time_zone', 'UTC'),
  ('vapid_public_key', 'BPublic'),
  ('hook_token_key', 'c2VjcmV0LWtleQ==');

DELETE FROM events WHERE id = 7;
`;

/**
 * Every table 040 rebuilds: how to name a row (its old primary key, which 040 keeps, now behind
 * organization_id) and, in the old schema, from which join its organization follows.
 */
const TENANT_TABLES: { table: string; key: string; oldOrg: string; added?: string[] }[] = [
  { table: 'api_keys', key: 't.id', oldOrg: 'SELECT t.organization_id AS org, $KEY AS k FROM api_keys t', added: ['name', 'access', 'projects', 'origins'] },
  // `added`: columns that 040 or a later migration adds (with their defaults), left out of the comparison.
  { table: 'users', key: 't.id', oldOrg: 'SELECT t.organization_id AS org, $KEY AS k FROM users t', added: ['role'] },
  { table: 'projects', key: 't.id', oldOrg: 'SELECT t.organization_id AS org, $KEY AS k FROM projects t', added: ['retention_days', 'deleted_at'] },
  {
    table: 'categories',
    key: `t.project_id || '/' || t.name`,
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM categories t JOIN projects p ON p.id = t.project_id',
  },
  {
    table: 'events',
    key: 't.id::text',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM events t JOIN projects p ON p.id = t.project_id',
    added: ['alert_id'],
  },
  {
    table: 'event_daily_counts',
    key: `t.project_id || '/' || t.day || '/' || t.category`,
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM event_daily_counts t JOIN projects p ON p.id = t.project_id',
  },
  {
    table: 'insights',
    key: 't.id::text',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM insights t JOIN projects p ON p.id = t.project_id',
  },
  {
    table: 'notify_outbox',
    key: 't.event_id::text',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM notify_outbox t JOIN projects p ON p.id = t.project_id',
  },
  {
    table: 'incoming_hooks',
    key: 't.id',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM incoming_hooks t JOIN projects p ON p.id = t.project_id',
    added: ['template'],
  },
  {
    table: 'organization_usage',
    key: `t.organization_id || '/' || t.month`,
    oldOrg: 'SELECT t.organization_id AS org, $KEY AS k FROM organization_usage t',
    added: ['cap'],
  },
  {
    table: 'destinations',
    key: 't.id',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM destinations t JOIN projects p ON p.id = t.project_id',
    added: ['categories', 'failure_run', 'disabled_reason', 'group_window_seconds'],
  },
  {
    table: 'deliveries',
    key: 't.id',
    oldOrg: `SELECT p.organization_id AS org, $KEY AS k FROM deliveries t
             JOIN destinations d ON d.id = t.destination_id JOIN projects p ON p.id = d.project_id`,
    added: ['event_ids'],
  },
  {
    table: 'delivery_attempts',
    key: `t.delivery_id || '/' || t.attempt`,
    oldOrg: `SELECT p.organization_id AS org, $KEY AS k FROM delivery_attempts t JOIN deliveries l ON l.id = t.delivery_id
             JOIN destinations d ON d.id = l.destination_id JOIN projects p ON p.id = d.project_id`,
    added: ['note'],
  },
  {
    table: 'push_subscriptions',
    key: 't.id',
    oldOrg: 'SELECT p.organization_id AS org, $KEY AS k FROM push_subscriptions t JOIN projects p ON p.id = t.project_id',
  },
  {
    table: 'push_jobs',
    key: 't.id',
    oldOrg: `SELECT p.organization_id AS org, $KEY AS k FROM push_jobs t
             JOIN push_subscriptions s ON s.id = t.subscription_id JOIN projects p ON p.id = s.project_id`,
  },
  { table: 'sessions', key: `encode(t.id_hash, 'hex')`, oldOrg: 'SELECT t.organization_id AS org, $KEY AS k FROM sessions t' },
];
/** Tables 040 leaves as they are, or creates; their rows are compared whole. */
const UNTOUCHED_TABLES = [
  { table: 'organizations', key: 't.id' },
  { table: 'settings', key: 't.key' },
];
/** Made by 040, then by later migrations. */
const NEW_TABLES = [
  'id_counters',
  'credentials',
  'user_emails',
  'app_users',
  'idempotency_keys',
  'invitations',
  'search_blocks',
  'search_progress',
  'alerts',
  'alert_transitions',
  'alert_schedules',
  'password_resets',
  'digest_settings',
  'mail_jobs',
  'browser_event_counts',
  'audit_entries',
  'tag_rollup_keys',
  'tag_daily_counts',
  'app_groups',
  'app_group_members',
  'notification_preferences',
  'held_notifications',
];

interface Snapshot {
  /** table -> row key -> the row as jsonb, without organization_id (and without columns 040 adds). */
  rows: Map<string, Map<string, unknown>>;
  /** table -> row key -> its organization. */
  orgs: Map<string, Map<string, string>>;
  counts: Map<string, number>;
  /** event id -> [tags text, metadata text]: json columns compared as text, byte for byte. */
  jsonText: Map<number, [string | null, string | null]>;
}

type Row = Record<string, unknown>;
const sortRows = (rows: Row[]) => [...rows].map((r) => ({ ...r })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

async function snapshot(db: postgres.Sql, stage: 'old' | 'new'): Promise<Snapshot> {
  const result: Snapshot = { rows: new Map(), orgs: new Map(), counts: new Map(), jsonText: new Map() };
  for (const { table, key, oldOrg, added = [] } of [...TENANT_TABLES, ...UNTOUCHED_TABLES.map((t) => ({ ...t, oldOrg: '', added: [] }))]) {
    const drop = ['organization_id', ...(stage === 'new' ? added : [])].map((c) => ` - '${c}'`).join('');
    const isTenant = oldOrg !== '';
    const rows = await db.unsafe<{ k: string; r: unknown }[]>(`SELECT ${key} AS k, ${isTenant ? `to_jsonb(t)${drop}` : 'to_jsonb(t)'} AS r FROM ${table} t`);
    const byKey = new Map(rows.map((row) => [row.k, row.r]));
    assert.equal(byKey.size, rows.length, `${stage} ${table}: one row per key`);
    result.rows.set(table, byKey);
    const [count] = await db.unsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`);
    result.counts.set(table, count!.n);
    if (!isTenant) continue;
    const orgQuery = stage === 'old' ? oldOrg.replace('$KEY', key) : `SELECT t.organization_id AS org, ${key} AS k FROM ${table} t`;
    const orgs = await db.unsafe<{ k: string; org: string }[]>(orgQuery);
    result.orgs.set(table, new Map(orgs.map((row) => [row.k, row.org])));
  }
  for (const row of await db<{ id: number; tags: string | null; metadata: string | null }[]>`
    SELECT id, tags::text AS tags, metadata::text AS metadata FROM events`) {
    result.jsonText.set(row.id, [row.tags, row.metadata]);
  }
  return result;
}

describe(`migration ${MIGRATION} on an existing installation`, { skip }, () => {
  let own: OwnDatabase;
  let db: postgres.Sql;
  let migratedUrl: string;
  let before040: Snapshot;
  let after040: Snapshot;
  let appliedByFullRun: string[];
  let searchIndexBefore: string | null;
  let searchIndexAfter040: string | null;

  before(async () => {
    // The schema before 040 cannot be distributed (that is what 040 fixes): a plain database, on Citus too.
    own = await createOwnDatabase(databaseUrl!, { citus: false, prefix: 'eventlog_mig' });
    migratedUrl = own.url;
    // One connection and a fixed time zone, so every to_jsonb text of a timestamptz compares equal.
    db = createClient(migratedUrl, { max: 1, timeZone: 'UTC' });

    const early = await migrate(db, undefined, { before: MIGRATION });
    assert.ok(early.length > 0 && early.every((name) => name < MIGRATION), 'only the migrations before 040 ran');
    await db.unsafe(OLD_SCHEMA_DATA);
    before040 = await snapshot(db, 'old');
    searchIndexBefore = await searchIndexDefinition(db);

    appliedByFullRun = await migrate(db, undefined, { through: MIGRATION });
    searchIndexAfter040 = await searchIndexDefinition(db);
    appliedByFullRun.push(...(await migrate(db)));
    after040 = await snapshot(db, 'new');
  });

  after(async () => {
    await db?.end({ timeout: 5 });
    await own?.drop();
  });

  it('builds the old-schema data with interleaved ids, as intended', () => {
    assert.deepEqual([...before040.orgs.get('events')!].sort(), [
      ['1', 'org_a'],
      ['2', 'org_b'],
      ['3', 'org_a'],
      ['4', 'org_b'],
      ['5', 'org_a'],
      ['6', 'org_b'],
    ]);
    assert.deepEqual([...before040.orgs.get('insights')!].sort(), [
      ['1', 'org_a'],
      ['2', 'org_b'],
      ['3', 'org_a'],
      ['4', 'org_b'],
    ]);
    for (const table of [...TENANT_TABLES.map((t) => t.table), 'organizations', 'settings']) {
      assert.ok(before040.counts.get(table)! > 0, `${table} has rows to migrate`);
    }
  });

  it(`the full run applies ${MIGRATION} and every later migration`, () => {
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d+_.+\.sql$/.test(f))
      .sort();
    assert.deepEqual(
      appliedByFullRun.filter((name) => /^\d/.test(name)),
      files.filter((f) => f >= MIGRATION),
    );
  });

  it('keeps the row count of every table', () => {
    assert.deepEqual(after040.counts, before040.counts);
  });

  it('keeps every row, under its old ids, with every column equal', () => {
    for (const { table } of [...TENANT_TABLES, ...UNTOUCHED_TABLES]) {
      assert.deepEqual(after040.rows.get(table), before040.rows.get(table), table);
    }
  });

  it('gives the columns later migrations add their defaults on existing rows', async () => {
    const [row] = await db`
      SELECT (SELECT count(*)::int FROM users WHERE role <> 'owner') AS "notOwners",
             (SELECT count(*)::int FROM projects WHERE deleted_at IS NOT NULL OR retention_days IS NOT NULL) AS "changedProjects",
             (SELECT count(*)::int FROM destinations WHERE categories IS NOT NULL OR failure_run <> 0 OR disabled_reason IS NOT NULL) AS "changedDestinations",
             (SELECT count(*)::int FROM incoming_hooks WHERE template IS NOT NULL) AS "templatedHooks",
             (SELECT count(*)::int FROM api_keys WHERE name IS NOT NULL) AS "namedKeys"`;
    assert.deepEqual(row, { notOwners: 0, changedProjects: 0, changedDestinations: 0, templatedHooks: 0, namedKeys: 0 });
  });

  it('puts every row in the organization it belonged to', () => {
    for (const { table } of TENANT_TABLES) assert.deepEqual(after040.orgs.get(table), before040.orgs.get(table), table);
  });

  it('finds each event and insight by (organization_id, id), and not from another organization', async () => {
    for (const [table, ids] of [
      ['events', before040.orgs.get('events')!],
      ['insights', before040.orgs.get('insights')!],
    ] as const) {
      for (const [id, org] of ids) {
        const found = await db.unsafe<{ r: unknown }[]>(
          `SELECT to_jsonb(t) - 'organization_id' - 'alert_id' AS r FROM ${table} t WHERE organization_id = $1 AND id = $2`,
          [org, Number(id)],
        );
        assert.deepEqual(
          found.map((row) => row.r),
          [before040.rows.get(table)!.get(id)],
          `${table} ${id} in ${org}`,
        );
        const elsewhere = await db.unsafe(`SELECT 1 FROM ${table} WHERE organization_id <> $1 AND id = $2`, [org, Number(id)]);
        assert.equal(elsewhere.length, 0, `${table} ${id} only in ${org}`);
      }
    }
  });

  it('keeps the json text of tags and metadata byte for byte (key order, spacing, duplicate keys)', () => {
    assert.deepEqual(after040.jsonText, before040.jsonText);
    assert.deepEqual(after040.jsonText.get(1), [TAGS_1, METADATA_1]);
    assert.deepEqual(after040.jsonText.get(4), [TAGS_4, METADATA_4]);
  });

  it("carries each organization's monthly cap onto its usage rows", async () => {
    const rows = await db`SELECT organization_id, month::text, events, cap FROM organization_usage ORDER BY 1, 2`;
    assert.deepEqual(sortRows(rows), [
      { organization_id: 'org_a', month: '2024-05-01', events: 4, cap: 1000 },
      { organization_id: 'org_b', month: '2024-04-01', events: 10, cap: 2147483647 },
      { organization_id: 'org_b', month: '2024-05-01', events: 3, cap: 2147483647 },
    ]);
  });

  it('starts the id counters after the highest id each organization used', async () => {
    const rows = await db`SELECT organization_id, kind, last_id::int AS last_id FROM id_counters`;
    assert.deepEqual(
      sortRows(rows),
      sortRows([
        // Event 7 of org A is deleted, but its delivery log still names it: 7 must not be handed out again.
        { organization_id: 'org_a', kind: 'event', last_id: 7 },
        { organization_id: 'org_a', kind: 'insight', last_id: 3 },
        { organization_id: 'org_b', kind: 'event', last_id: 6 },
        { organization_id: 'org_b', kind: 'insight', last_id: 4 },
      ]),
    );
    const [below] = await db`
      SELECT count(*)::int AS n FROM (
        SELECT organization_id, 'event' AS kind, id FROM events
        UNION ALL SELECT organization_id, 'insight', id FROM insights
        UNION ALL SELECT organization_id, 'event', event_id FROM deliveries
        UNION ALL SELECT organization_id, 'event', event_id FROM push_jobs
        UNION ALL SELECT organization_id, 'event', event_id FROM notify_outbox
      ) used LEFT JOIN id_counters c USING (organization_id, kind)
      WHERE c.last_id IS NULL OR used.id > c.last_id`;
    assert.equal(below!.n, 0, 'no id in use or in the logs is at or above its counter');
  });

  it('routes every api key, hook token and session hash to its organization', async () => {
    const rows = await db`SELECT encode(hash, 'hex') AS hash, kind, organization_id FROM credentials`;
    assert.deepEqual(
      sortRows(rows),
      sortRows([
        { hash: sha256Hex(keys.a), kind: 'api_key', organization_id: 'org_a' },
        { hash: sha256Hex(keys.aRevoked), kind: 'api_key', organization_id: 'org_a' },
        { hash: sha256Hex(keys.b), kind: 'api_key', organization_id: 'org_b' },
        { hash: sha256Hex(hookTokens.a), kind: 'hook', organization_id: 'org_a' },
        { hash: sha256Hex(hookTokens.b), kind: 'hook', organization_id: 'org_b' },
        { hash: sha256Hex(sessionTokens.a), kind: 'session', organization_id: 'org_a' },
        { hash: sha256Hex(sessionTokens.b), kind: 'session', organization_id: 'org_b' },
      ]),
    );
    const [stray] = await db`
      SELECT count(*)::int AS n FROM credentials c WHERE NOT EXISTS (
        SELECT 1 FROM api_keys k WHERE c.kind = 'api_key' AND k.key_hash = c.hash AND k.organization_id = c.organization_id
        UNION ALL SELECT 1 FROM incoming_hooks h WHERE c.kind = 'hook' AND h.token_hash = c.hash AND h.organization_id = c.organization_id
        UNION ALL SELECT 1 FROM sessions s WHERE c.kind = 'session' AND s.id_hash = c.hash AND s.organization_id = c.organization_id)`;
    assert.equal(stray!.n, 0, 'every credential row matches its tenant row');
  });

  it('routes every sign-in email, lower-cased, to its user', async () => {
    const rows = await db`SELECT email, organization_id, user_id FROM user_emails`;
    assert.deepEqual(
      sortRows(rows),
      sortRows([
        { email: 'alice@example.com', organization_id: 'org_a', user_id: 'usr_a1' },
        { email: 'dave@example.com', organization_id: 'org_a', user_id: 'usr_a2' },
        { email: 'bob@example.com', organization_id: 'org_b', user_id: 'usr_b1' },
        { email: 'carol@example.com', organization_id: 'org_c', user_id: 'usr_c1' },
      ]),
    );
  });

  it('has exactly the expected tables; each tenant table keys on organization_id first', async () => {
    const tables = await db<{ name: string }[]>`
      SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`;
    const expected = [...TENANT_TABLES.map((t) => t.table), ...UNTOUCHED_TABLES.map((t) => t.table), ...NEW_TABLES, 'schema_migrations'];
    assert.deepEqual(tables.map((t) => t.name).sort(), expected.sort(), 'no new_* table left behind, none missing');

    const keys = await db<{ table: string; type: string; columns: string[] }[]>`
      SELECT c.relname AS table, k.contype::text AS type,
             array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(attnum, i)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i) AS columns
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND k.contype IN ('p', 'u')`;
    for (const { table } of TENANT_TABLES) {
      const primary = keys.filter((k) => k.table === table && k.type === 'p');
      assert.equal(primary.length, 1, `${table} has a primary key`);
      assert.equal(primary[0]!.columns[0], 'organization_id', `${table} primary key (${primary[0]!.columns.join(', ')}) starts with organization_id`);
      for (const unique of keys.filter((k) => k.table === table && k.type === 'u')) {
        assert.equal(unique.columns[0], 'organization_id', `${table} unique (${unique.columns.join(', ')}) starts with organization_id`);
      }
    }
    // The migration's own statement: the primary keys are exactly the old keys behind organization_id.
    const primaryOf = (table: string) => keys.find((k) => k.table === table && k.type === 'p')?.columns;
    assert.deepEqual(primaryOf('events'), ['organization_id', 'id']);
    assert.deepEqual(primaryOf('event_daily_counts'), ['organization_id', 'project_id', 'day', 'category']);
    assert.deepEqual(primaryOf('delivery_attempts'), ['organization_id', 'delivery_id', 'attempt']);
    assert.deepEqual(primaryOf('sessions'), ['organization_id', 'id_hash']);
  });

  it('rebuilds the events_search index, unchanged, when pg_trgm is installed (until 090 moves it)', async () => {
    const [trgm] = await db`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`;
    const definition = await searchIndexDefinition(db);
    if (trgm!.n === 0) {
      assert.equal(definition, null, 'no search index without pg_trgm');
      return;
    }
    assert.equal(searchIndexAfter040, searchIndexBefore, 'same definition as before 040');
    // 090 moves search to a table of its own, filled after commit; 126 makes its rows blocks of events.
    assert.equal(definition, null, 'events_search is gone after 090');
    const [moved] = await db<{ def: string | null }[]>`SELECT pg_get_indexdef(to_regclass('search_blocks_words')) AS def`;
    assert.match(moved?.def ?? '', /USING gin \(words gin_trgm_ops\)/);
  });

  it('a second migrate is a no-op', async () => {
    assert.deepEqual(await migrate(db), []);
    const again = await snapshot(db, 'new');
    assert.deepEqual(again.counts, after040.counts);
    assert.deepEqual(again.rows, after040.rows);
    const names = await db`SELECT name FROM schema_migrations ORDER BY name`;
    assert.deepEqual(
      names.map((r) => r.name).filter((name) => /^\d/.test(name)),
      fs
        .readdirSync(MIGRATIONS_DIR)
        .filter((f) => /^\d+_.+\.sql$/.test(f))
        .sort(),
    );
  });

  it('migrate refuses a `before` that names no migration', async () => {
    await assert.rejects(migrate(db, undefined, { before: '999_nothing.sql' }), /no migration named 999_nothing\.sql/);
  });

  // Separate from the SQL checks above: the same migrated data read through the HTTP application,
  // as a dashboard or client would after the upgrade. These depend on the application's queries.
  describe('read back through the API', () => {
    interface Api {
      get(url: string, key: string): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
      close(): Promise<void>;
    }
    let app: Promise<Api> | undefined;

    /** Built on first use, inside a test, so a failure to start is that test's failure. */
    function openApp() {
      app ??= (async (): Promise<Api> => {
        const config = loadConfig({ ...process.env, DATABASE_URL: migratedUrl });
        const sql = createClient(migratedUrl, { timeZone: config.timeZone, max: 4 });
        const { services, close } = await createServices(config, sql, createLogger('silent'));
        const built = await buildApp({ services });
        await built.ready();
        return {
          async get(url, key) {
            const raw = await built.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
            return { status: raw.statusCode, body: raw.body ? raw.json() : undefined };
          },
          async close() {
            await built.close();
            await close();
            await sql.end({ timeout: 5 });
          },
        };
      })();
      return app;
    }

    after(async () => {
      if (!app) return;
      await (await app.catch(() => undefined))?.close();
    });

    it("an organization's key lists its own projects only", async () => {
      const reply = await (await openApp()).get('/api/projects', keys.a);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.map((p: { id: string }) => p.id).sort(), ['prj_a1', 'prj_a2']);
    });

    it('events keep their ids and their tags keep their key order', async () => {
      const api = await openApp();
      const a = await api.get('/api/events?project=prj_a1', keys.a);
      assert.equal(a.status, 200);
      assert.deepEqual(a.body.events.map((e: { id: number }) => e.id).sort(), [1, 3]);
      const first = a.body.events.find((e: { id: number }) => e.id === 1);
      assert.deepEqual(Object.keys(first.tags), ['plan', 'a', 'z']);
      assert.equal(first.notify, true);
      assert.equal(a.body.events.find((e: { id: number }) => e.id === 3).favorited, true);
      const b = await api.get('/api/events?project=prj_b1', keys.b);
      assert.deepEqual(b.body.events.map((e: { id: number }) => e.id).sort(), [2, 4, 6]);
    });

    it("another organization's project is not found; a revoked key is refused", async () => {
      const api = await openApp();
      assert.equal((await api.get('/api/events?project=prj_b1', keys.a)).status, 404);
      assert.equal((await api.get('/api/projects', keys.aRevoked)).status, 401);
    });

    it('insights keep their ids', async () => {
      const reply = await (await openApp()).get('/api/insights?project=prj_b1', keys.b);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.map((i: { id: number }) => i.id).sort(), [2, 4]);
    });
  });

  describe('then 090 and 126: search blocks for the events the installation already had', () => {
    it('the indexer puts every event in one block, from id 1 of each organization, with its words', async () => {
      const [written] = await db<{ n: number }[]>`SELECT count(*)::int AS n FROM search_blocks`;
      assert.equal(written!.n, 0, 'nothing indexed by the migration itself');
      await new SearchIndexer(db, createLogger('silent')).runUntilIdle();
      const events = await db<{ organizationId: string; id: number; projectId: string; document: string }[]>`
        SELECT e.organization_id AS "organizationId", e.id, e.project_id AS "projectId", ${searchDocument(db)} AS document
        FROM events e`;
      const blocks = await db<{ organizationId: string; projectId: string; ids: number[]; words: string }[]>`
        SELECT organization_id AS "organizationId", project_id AS "projectId", event_ids AS ids, words FROM search_blocks`;
      const blockOf = new Map(blocks.flatMap((block) => block.ids.map((id) => [`${block.organizationId}/${id}`, block] as const)));
      assert.ok(events.length > 0);
      assert.equal(blockOf.size, events.length, 'every event in one block');
      for (const event of events) {
        const block = blockOf.get(`${event.organizationId}/${event.id}`)!;
        assert.equal(block.projectId, event.projectId);
        const held = new Set(block.words.split(' '));
        for (const word of blockWords(event.document).split(' ')) if (word) assert.ok(held.has(word), `${word} of event ${event.id}`);
      }
      const [behind] = await db<{ n: number }[]>`
        SELECT count(*)::int AS n FROM id_counters c LEFT JOIN search_progress p ON p.organization_id = c.organization_id
        WHERE c.kind = 'event' AND c.last_id > coalesce(p.indexed_through, 0)`;
      assert.equal(behind!.n, 0);
    });
  });
});

async function searchIndexDefinition(db: postgres.Sql): Promise<string | null> {
  const [row] = await db<{ def: string | null }[]>`
    SELECT CASE WHEN to_regclass('events_search') IS NOT NULL THEN pg_get_indexdef(to_regclass('events_search')) END AS def`;
  return row?.def ?? null;
}

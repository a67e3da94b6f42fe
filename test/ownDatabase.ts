import crypto from 'node:crypto';
import postgres from 'postgres';

/** An empty database of a test file's own, on the server the test runner provides. */
export interface OwnDatabase {
  url: string;
  /** Drops it, closing whatever connections are still open on it. */
  drop: () => Promise<void>;
}

interface OwnDatabaseOptions {
  /**
   * On a Citus coordinator the database gets the extension on every node and the workers added,
   * as the runner's own database has them (default). False gives a plain database there: only
   * for a schema that predates the distributable one (the migration 040 test).
   */
  citus?: boolean;
  /** How the name starts, to tell leftovers apart. */
  prefix?: string;
  /**
   * A copy of the test runner's migrated template (EVENTLOG_TEST_TEMPLATE) when there is one: a
   * second instead of a migration of the whole schema, half a minute on Citus (decision 230).
   * Without a template, or on a server that lacks it, an empty database as usual.
   */
  migrated?: boolean;
}

/** Set by `npm test` for each store: the name of a migrated database to copy (createMigratedTemplate). */
const TEMPLATE_VARIABLE = 'EVENTLOG_TEST_TEMPLATE';

/**
 * Creates a database beside the one in `serverUrl` (the embedded cluster's, an external
 * DATABASE_URL or a Citus coordinator), named after it so a leftover is easy to spot. The caller
 * runs the migrations; on Citus they also distribute the schema (db/migrate.ts). A file that runs
 * the delivery worker needs one: the worker takes every organization's work.
 */
export async function createOwnDatabase(serverUrl: string, options: OwnDatabaseOptions = {}): Promise<OwnDatabase> {
  const { url, drop } = await createDatabase(serverUrl, options);
  return { url, drop };
}

/** createOwnDatabase, also saying the database's name and the nodes it was made on. */
async function createDatabase(serverUrl: string, options: OwnDatabaseOptions): Promise<OwnDatabase & { name: string; nodes: string[] }> {
  const url = new URL(serverUrl);
  const base =
    options.prefix ??
    (decodeURIComponent(url.pathname.slice(1))
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_') ||
      'eventlog');
  const name = `${base.slice(0, 40)}_file_${crypto.randomBytes(6).toString('hex')}`;
  const citus = options.citus === false ? null : await citusLayout(serverUrl);
  const nodes = citus ? [...citus.workers.map((worker) => nodeUrl(serverUrl, worker)), serverUrl] : [serverUrl];
  const drop = async () => {
    for (const node of [...nodes].reverse()) {
      await onServer(node, (admin) => admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  };
  url.pathname = `/${name}`;
  const own = url.toString();
  const template = options.migrated ? process.env[TEMPLATE_VARIABLE] : undefined;
  if (template && (await copyTemplate(nodes, template, name, drop))) {
    // Database settings are not copied with the database.
    if (citus) await onServer(own, (db) => db.unsafe(`ALTER DATABASE "${name}" SET citus.shard_count = ${Number(citus.shardCount)}`));
    return { url: own, drop, name, nodes };
  }
  for (const node of nodes) await onServer(node, (admin) => admin.unsafe(`CREATE DATABASE "${name}"`));
  if (citus) {
    for (const worker of citus.workers) await onServer(nodeUrl(own, worker), (db) => db`CREATE EXTENSION citus`);
    await onServer(own, async (db) => {
      await db`CREATE EXTENSION citus`;
      await db.unsafe(`ALTER DATABASE "${name}" SET citus.shard_count = ${Number(citus.shardCount)}`);
      await db`SELECT citus_set_coordinator_host(${citus.coordinator.host}, ${citus.coordinator.port})`;
      for (const worker of citus.workers) await retryingTransientFailure(() => db`SELECT citus_add_node(${worker.host}, ${worker.port})`);
    });
  }
  return { url: own, drop, name, nodes };
}

/**
 * Copies `template` to `name` on every node (workers first, as createOwnDatabase creates them), or
 * drops what it copied and says false when a node has no such template (a file whose server is not
 * the runner's).
 */
async function copyTemplate(nodes: string[], template: string, name: string, drop: () => Promise<void>): Promise<boolean> {
  try {
    for (const node of nodes) await onServer(node, (admin) => admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
    return true;
  } catch (error) {
    // The copies made on the nodes before the one that failed.
    await drop();
    if ((error as { code?: string }).code === '3D000') return false;
    throw error;
  }
}

/**
 * A database on `serverUrl`'s server (every node of a Citus cluster) migrated by `migrate`, that no
 * one may connect to any more, so that createOwnDatabase({ migrated: true }) can copy it: PostgreSQL
 * copies a template only while nobody is connected to it, and Citus's maintenance daemon would be.
 * The runner makes one per store and sets EVENTLOG_TEST_TEMPLATE to its name (decision 230).
 */
export async function createMigratedTemplate(serverUrl: string, migrate: (url: string) => Promise<void>): Promise<OwnDatabase & { name: string }> {
  const template = await createDatabase(serverUrl, { prefix: 'eventlog_template' });
  const { name, nodes } = template;
  try {
    await migrate(template.url);
    for (const node of nodes) {
      await onServer(node, async (admin) => {
        await admin.unsafe(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`;
      });
    }
  } catch (error) {
    await template.drop();
    throw error;
  }
  return { url: template.url, drop: template.drop, name };
}

interface Node {
  host: string;
  port: number;
}

/** The coordinator and workers of a Citus database, or null when `serverUrl` is plain PostgreSQL. */
async function citusLayout(serverUrl: string): Promise<{ coordinator: Node; workers: Node[]; shardCount: string } | null> {
  let layout: { coordinator: Node; workers: Node[]; shardCount: string } | null = null;
  await onServer(serverUrl, async (db) => {
    const [extension] = await db`SELECT 1 AS present FROM pg_extension WHERE extname = 'citus'`;
    if (!extension) return;
    const nodes = await db<{ host: string; port: number; coordinator: boolean }[]>`
      SELECT nodename AS host, nodeport AS port, groupid = 0 AS coordinator
      FROM pg_dist_node WHERE noderole = 'primary' AND isactive`;
    const [setting] = await db<{ shardCount: string }[]>`SELECT current_setting('citus.shard_count') AS "shardCount"`;
    const coordinator = nodes.find((node) => node.coordinator);
    if (!coordinator) throw new Error('the Citus coordinator has no node row (citus_set_coordinator_host)');
    layout = { coordinator, workers: nodes.filter((node) => !node.coordinator), shardCount: setting!.shardCount };
  });
  return layout;
}

/** `url` with another host and port: the same credentials on another node of the cluster. */
function nodeUrl(url: string, node: Node): string {
  const other = new URL(url);
  other.hostname = node.host;
  other.port = String(node.port);
  return other.toString();
}

async function onServer(serverUrl: string, run: (admin: postgres.Sql) => Promise<unknown>): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await run(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * Adding a worker opens connections to it and syncs metadata over them; under a full runner
 * another file dropping its database (WITH FORCE) or a busy worker now and then breaks one of them
 * ("failure on connection marked as essential", XX000). Adding is idempotent, so try again.
 */
async function retryingTransientFailure(run: () => Promise<unknown>, attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run();
      return;
    } catch (error) {
      const internal = (error as { code?: string }).code === 'XX000';
      if (!internal || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCitus } from './citus.ts';
import type { Sql, TransactionSql } from './client.ts';
import { sqlStatements } from './sqlStatements.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
/** Repeatable migrations: each file applied again whenever its content changes (decision 168). */
const REPEATABLE_DIR = path.join(MIGRATIONS_DIR, 'repeatable');
/** Any constant: it names the advisory lock that serialises concurrent starts. */
const MIGRATION_LOCK = 7_427_001;

interface MigrateOptions {
  /**
   * Stop before this migration file (e.g. '040_tenant_keys.sql'): it and every later one stay
   * pending. For tests that build data in an older schema and then migrate it.
   */
  before?: string;
  /** Stop after this migration file: a restore builds the schema its backup was taken in. */
  through?: string;
}

/** Every migration file this version of the code knows, in the order they apply. */
export async function migrationNames(): Promise<string[]> {
  return (await fs.readdir(MIGRATIONS_DIR)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
}

/**
 * Applies the numbered SQL files in migrations/ that have not run yet, in name order, all in ONE
 * transaction: either every pending file is applied and recorded in schema_migrations, or none
 * is. The transaction first takes an advisory lock, so of two processes starting at once one
 * waits, then finds the work done. Returns the names applied.
 */
export async function migrate(sql: Sql, log: (message: string) => void = () => {}, options: MigrateOptions = {}): Promise<string[]> {
  const applied = await sql.begin((tx) => migrateInTransaction(tx, log, options));
  if (options.before === undefined && options.through === undefined) {
    const repeatable = await applyRepeatable(sql, log);
    applied.push(...repeatable);
    if (await isCitus(sql)) {
      await distributeOnCitus(sql, log);
      await writeShardFunctions(sql, repeatable.length > 0, log);
    }
  }
  return applied;
}

/** How a repeatable migration is recorded in schema_migrations: its file name and a digest of its content. */
export const repeatableRecord = (name: string, content: string) => `R__${name}@${crypto.createHash('sha256').update(content).digest('hex').slice(0, 16)}`;

/**
 * Applies each file of `dir` (migrations/repeatable/ by default) whose current content has not
 * been applied yet, in name order, after the numbered migrations and in a transaction of their
 * own: on Citus a function that is already distributed is then replaced on every node, which
 * the numbered migrations' transaction (after parallel commands on shards) cannot do. A file
 * recorded with its digest is not applied again; a changed file is, and both records stay.
 */
export async function applyRepeatable(sql: Sql, log: (message: string) => void = () => {}, dir = REPEATABLE_DIR): Promise<string[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.sql')).sort();
  if (names.length === 0) return [];
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const done = new Set((await tx<{ name: string }[]>`SELECT name FROM schema_migrations WHERE name LIKE 'R\_\_%'`).map((r) => r.name));
    const applied: string[] = [];
    for (const name of names) {
      const content = await fs.readFile(path.join(dir, name), 'utf8');
      const record = repeatableRecord(name, content);
      if (done.has(record)) continue;
      log(`applying repeatable migration ${name}`);
      for (const statement of sqlStatements(content)) await tx.unsafe(statement);
      await tx`INSERT INTO schema_migrations (name) VALUES (${record})`;
      applied.push(record);
    }
    return applied;
  });
}

/** The functions migrations/citus.sql distributes (a migration may add one to a schema already distributed). */
const DISTRIBUTED_FUNCTIONS = ['ingest_events(text,text,text,text,boolean,boolean,boolean,text,integer)'];

/**
 * On a Citus coordinator, distributes every table of the schema that is not yet distributed, and
 * ingest's function (migrations/citus.sql, the file docs/scaling.md shows), so a release that adds
 * a table cannot leave it local by accident. Its own transaction, after the migrations': Citus
 * distributes a table with the rows it already has. migrate() calls it on Citus only.
 */
async function distributeOnCitus(sql: Sql, log: (message: string) => void): Promise<void> {
  const statements = await fs.readFile(path.join(MIGRATIONS_DIR, 'citus.sql'), 'utf8');
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const [pending] = await tx<{ tables: number; functions: number }[]>`
      SELECT (SELECT count(*)::int FROM pg_tables t
              WHERE t.schemaname = 'public' AND t.tablename <> 'schema_migrations'
                AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = format('%I', t.tablename)::regclass)) AS tables,
             (SELECT count(*)::int FROM unnest(${DISTRIBUTED_FUNCTIONS}::text[]) AS f(signature)
              WHERE to_regprocedure(f.signature) IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM pg_dist_object d
                                WHERE d.classid = 'pg_proc'::regclass AND d.objid = to_regprocedure(f.signature)
                                  AND d.distribution_argument_index IS NOT NULL)) AS functions`;
    if (!pending || pending.tables + pending.functions === 0) return;
    log(`distributing ${pending.tables} tables and ${pending.functions} functions on Citus (migrations/citus.sql)`);
    await tx.unsafe(statements);
  });
}

/**
 * On a Citus coordinator, the copies of ingest's function that write through one shard group's
 * tables by name (migrations/repeatable/ingest_events_on_shards.sql, decision 232): the missing
 * ones, or all of them again when a repeatable migration changed the function.
 */
async function writeShardFunctions(sql: Sql, replace: boolean, log: (message: string) => void): Promise<void> {
  const written = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const [row] = await tx<{ written: number }[]>`SELECT ingest_events_make_shard_functions(${replace}) AS written`;
    return row?.written ?? 0;
  });
  if (written > 0) log(`wrote ingest's function for ${written} shards on Citus (decision 232)`);
}

/** migrate() inside a transaction the caller opened (and may still roll back). */
export async function migrateInTransaction(tx: TransactionSql, log: (message: string) => void = () => {}, options: MigrateOptions = {}): Promise<string[]> {
  const all = await migrationNames();
  const { before, through } = options;
  if (before !== undefined && !all.includes(before)) throw new Error(`migrate: no migration named ${before}`);
  if (through !== undefined && !all.includes(through)) throw new Error(`migrate: no migration named ${through}`);
  const files = all.filter((name) => (before === undefined || name < before) && (through === undefined || name <= through));
  const applied: string[] = [];
  await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
  await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
  const done = new Set((await tx<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name));
  for (const name of files) {
    if (done.has(name)) continue;
    log(`applying migration ${name}`);
    // One statement at a time: Citus forwards some DDL as the text it received (sqlStatements.ts).
    for (const statement of sqlStatements(await fs.readFile(path.join(MIGRATIONS_DIR, name), 'utf8'))) await tx.unsafe(statement);
    await tx`INSERT INTO schema_migrations (name) VALUES (${name})`;
    applied.push(name);
  }
  return applied;
}

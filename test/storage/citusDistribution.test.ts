import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

/**
 * migrations/citus.sql distributes the schema on Citus (the server runs it at start on a Citus
 * database; docs/scaling.md shows it for operators). A table a migration adds must join it, on
 * every store, so that no table is left local on Citus by accident.
 */
const root = path.resolve(import.meta.dirname, '../..');
const distribution = fs.readFileSync(path.join(root, 'migrations/citus.sql'), 'utf8');
const t = useTestApp();

/** Only the coordinator migrates: this table stays local there by design. */
const COORDINATOR_LOCAL = ['schema_migrations'];

/** Every table name the file distributes, colocated or not. */
function distributedNames(): Set<string> {
  const names = new Set<string>();
  for (const match of distribution.matchAll(/'([a-z_]+)'/g)) names.add(match[1]!);
  for (const notATable of ['id', 'organization_id', 'hash', 'email', 'none']) names.delete(notATable);
  return names;
}

describe('the distribution of the schema on Citus', () => {
  it('names every table of the schema, or says it stays on the coordinator', async () => {
    const tables = await t.services.sql<{ name: string }[]>`
      SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`;
    const named = distributedNames();
    const missing = tables.map((table) => table.name).filter((name) => !named.has(name) && !COORDINATOR_LOCAL.includes(name));
    assert.deepEqual(missing, [], 'add these tables to migrations/citus.sql (and the table in docs/scaling.md)');
  });

  it('is shown in docs/scaling.md exactly as the file runs it', () => {
    const docs = fs.readFileSync(path.join(root, 'docs/scaling.md'), 'utf8');
    const block = /```sql\n([\s\S]*?)```/.exec(docs)?.[1];
    assert.ok(block, 'docs/scaling.md has a sql block');
    const statements = distribution.slice(distribution.indexOf('SELECT create_distributed_table'));
    const unindent = (text: string) =>
      text
        .split('\n')
        .map((line) => line.replace(/^ {3}/, ''))
        .join('\n')
        .trim();
    assert.equal(unindent(block), statements.trim());
  });

  it(
    'leaves no table local on Citus, and colocates every tenant table with organizations',
    { skip: process.env.EVENTLOG_TEST_STORE !== 'citus' && 'the store is not Citus' },
    async () => {
      const rows = await t.services.sql<{ name: string; method: string | null; colocated: boolean | null }[]>`
      SELECT t.tablename AS name, p.partmethod::text AS method,
             p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'organizations'::regclass) AS colocated
      FROM pg_tables t
      LEFT JOIN pg_dist_partition p ON p.logicalrelid = format('%I', t.tablename)::regclass
      WHERE t.schemaname = 'public' ORDER BY 1`;
      const local = rows.filter((row) => row.method === null).map((row) => row.name);
      assert.deepEqual(local, COORDINATOR_LOCAL);
      const apart = rows.filter((row) => row.method === 'h' && !row.colocated).map((row) => row.name);
      assert.deepEqual(apart, ['credentials', 'user_emails'], 'only the installation-wide lookups are keyed apart');
    },
  );
});

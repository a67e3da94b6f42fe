import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
/** Any constant: it names the advisory lock that serialises concurrent starts. */
const MIGRATION_LOCK = 7_427_001;

/**
 * Applies the numbered SQL files in migrations/ that have not run yet, each in its own
 * transaction, under an advisory lock so two processes starting at once do not race.
 */
export async function migrate(sql: Sql, log: (message: string) => void = () => {}): Promise<string[]> {
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set((await tx<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name));
    for (const name of files) {
      if (done.has(name)) continue;
      log(`applying migration ${name}`);
      await tx.unsafe(await fs.readFile(path.join(MIGRATIONS_DIR, name), 'utf8'));
      await tx`INSERT INTO schema_migrations (name) VALUES (${name})`;
      applied.push(name);
    }
  });
  return applied;
}

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createClient } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';
import { ServerProcess, cleanUp, externalEnv, tempDataDir } from './processes.ts';

/**
 * Several processes on one PostgreSQL (DATABASE_URL): each test gets a new database on the
 * server the runner provides (the embedded one in the first pass, the external one in the second).
 */

after(cleanUp);

describe('a shared PostgreSQL (DATABASE_URL)', () => {
  const databaseUrl = process.env.DATABASE_URL;
  const skip = !databaseUrl && 'DATABASE_URL is not set';
  const databases: OwnDatabase[] = [];

  /** A new, empty database on the runner's PostgreSQL (on every node of Citus), dropped after the tests. */
  async function freshDatabase(): Promise<string> {
    const own = await createOwnDatabase(databaseUrl!, { prefix: 'eventlog_t' });
    databases.push(own);
    return own.url;
  }

  after(async () => {
    for (const own of databases) await own.drop();
  });

  it('applies each migration once when several processes migrate at the same moment', { skip }, async () => {
    const url = await freshDatabase();
    const clients = [1, 2, 3].map(() => createClient(url, { max: 2 }));
    try {
      const applied = await Promise.all(clients.map((sql) => migrate(sql)));
      const files = fs
        .readdirSync(path.resolve(import.meta.dirname, '../../migrations'))
        .filter((f) => /^\d+_.+\.sql$/.test(f))
        .sort();
      const numbered = (names: string[]) => names.filter((name) => /^\d/.test(name));
      assert.deepEqual(numbered(applied.flat()).sort(), files, 'every file applied by exactly one process');
      assert.equal(applied.filter((list) => numbered(list).length > 0).length, 1, 'one process did all the numbered ones');
      const repeatable = applied.flat().filter((name) => name.startsWith('R__'));
      assert.deepEqual(repeatable, [...new Set(repeatable)], 'each repeatable migration applied once');
      const rows = await clients[0]!`SELECT name FROM schema_migrations ORDER BY name`;
      assert.deepEqual(numbered(rows.map((r) => r.name)), files);
      assert.deepEqual(
        rows
          .map((r) => r.name)
          .filter((name) => name.startsWith('R__'))
          .sort(),
        [...repeatable].sort(),
      );
      assert.deepEqual(await migrate(clients[1]!), [], 'a later start has nothing to do');
    } finally {
      await Promise.all(clients.map((sql) => sql.end()));
    }
  });

  it('starts two servers at once on one fresh database; both serve', { skip }, async () => {
    const url = await freshDatabase();
    const dataDir = tempDataDir('storage-shared');
    const servers = await Promise.all([1, 2].map(() => ServerProcess.start(externalEnv(url, dataDir))));
    try {
      await Promise.all(servers.map((server) => server.healthy()));
      const replies = await Promise.all(servers.map((server) => fetch(`${server.url}/api/projects`)));
      assert.deepEqual(
        replies.map((r) => r.status),
        [401, 401],
        'both answer the API',
      );
    } finally {
      const exits = await Promise.all(servers.map((server) => server.stop('SIGTERM')));
      assert.deepEqual(exits, [
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
    }
    assert.deepEqual(fs.readdirSync(dataDir), [], 'with DATABASE_URL nothing is written to DATA_DIR');
  });
});

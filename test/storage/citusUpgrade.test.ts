import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createClient } from '../../src/db/client.ts';
import { migrate, migrationNames } from '../../src/db/migrate.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';
import { useTestApp } from '../helpers.ts';

/**
 * An installation distributed on Citus by an earlier release takes the later migrations: they
 * alter distributed tables (checks, indexes, columns), which Citus forwards to its workers, and
 * the tables they add are distributed at the end. Since the schema became distributable
 * (migration 090 and before it), every later file is applied this way here.
 */
const onCitus = process.env.EVENTLOG_TEST_STORE === 'citus';
const LAST_OF_EARLIER_RELEASE = '090_search_table.sql';
const t = useTestApp();

describe('upgrading an installation already distributed on Citus', { skip: !onCitus && 'the store is not Citus' }, () => {
  let own: OwnDatabase | undefined;
  after(() => own?.drop());

  it(`applies every migration after ${LAST_OF_EARLIER_RELEASE} to distributed tables, then distributes the new tables and functions`, async () => {
    own = await createOwnDatabase(t.databaseUrl, { prefix: 'eventlog_upgrade' });
    const db = createClient(own.url, { max: 1 });
    try {
      await migrate(db, undefined, { through: LAST_OF_EARLIER_RELEASE });
      await db.unsafe(fs.readFileSync(path.resolve(import.meta.dirname, '../../migrations/citus.sql'), 'utf8'));
      const later = (await migrationNames()).filter((name) => name > LAST_OF_EARLIER_RELEASE);
      assert.deepEqual(
        (await migrate(db)).filter((name) => /^\d/.test(name)),
        later,
      );
      const local = await db<{ name: string }[]>`
        SELECT tablename AS name FROM pg_tables t WHERE schemaname = 'public' AND tablename <> 'schema_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = format('%I', t.tablename)::regclass)`;
      assert.deepEqual([...local], [], 'every table is distributed after the upgrade');
      const [ingest] = await db<{ delegated: boolean }[]>`
        SELECT distribution_argument_index IS NOT NULL AS delegated FROM pg_dist_object
        WHERE classid = 'pg_proc'::regclass AND objid = to_regprocedure('ingest_events(text,text,text,text,boolean,boolean,boolean,text,integer)')`;
      assert.equal(ingest?.delegated, true, "ingest's function is distributed by organization after the upgrade");
    } finally {
      await db.end({ timeout: 5 });
    }
  });
});

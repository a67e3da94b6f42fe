import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Sql, createClient } from '../../src/db/client.ts';
import { applyRepeatable, migrate, repeatableRecord } from '../../src/db/migrate.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';

// Decision 168: ingest's function has one source file, applied again whenever it changes.
const REPEATABLE_DIR = path.resolve(import.meta.dirname, '../../migrations/repeatable');

describe('repeatable migrations', () => {
  let own: OwnDatabase;
  let sql: Sql;
  before(async () => {
    own = await createOwnDatabase(process.env.DATABASE_URL!, { prefix: 'eventlog_repeatable' });
    sql = createClient(own.url, { max: 2 });
    await migrate(sql);
  });
  after(async () => {
    await sql?.end({ timeout: 5 });
    await own?.drop();
  });

  it('hold the function the database runs: ingest_events is its file, recorded with its digest', async () => {
    const content = fs.readFileSync(path.join(REPEATABLE_DIR, 'ingest_events.sql'), 'utf8');
    const recorded = await sql<{ name: string }[]>`SELECT name FROM schema_migrations WHERE name LIKE 'R\\_\\_%'`;
    assert.ok(
      recorded.some((row) => row.name === repeatableRecord('ingest_events.sql', content)),
      JSON.stringify(recorded),
    );
    const [fn] = await sql<{ source: string }[]>`SELECT prosrc AS source FROM pg_proc WHERE proname = 'ingest_events'`;
    const body = content.slice(content.indexOf('$$') + 2, content.lastIndexOf('$$'));
    assert.equal(fn?.source, body);
    assert.deepEqual(await migrate(sql), [], 'a later start applies nothing');
  });

  it('replace ingest_events on every node when its file changes, distributed on Citus too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-repeatable-'));
    try {
      const content = fs.readFileSync(path.join(REPEATABLE_DIR, 'ingest_events.sql'), 'utf8');
      fs.writeFileSync(path.join(dir, 'ingest_events.sql'), content.replace('DECLARE\n', 'DECLARE\n  -- changed by the test\n'));
      assert.equal((await applyRepeatable(sql, undefined, dir)).length, 1);
      const [fn] = await sql<{ source: string }[]>`SELECT prosrc AS source FROM pg_proc WHERE proname = 'ingest_events'`;
      assert.match(fn!.source, /changed by the test/);
      const [citus] = await sql<{ present: boolean }[]>`SELECT to_regclass('pg_dist_node') IS NOT NULL AS present`;
      if (citus?.present) {
        const workers = await sql<{ result: string }[]>`
          SELECT result FROM run_command_on_workers($$SELECT prosrc FROM pg_proc WHERE proname = 'ingest_events'$$)`;
        assert.ok(workers.length > 0 && workers.every((w) => w.result.includes('changed by the test')), 'every worker runs the new body');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('apply a file again when, and only when, its content changes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-repeatable-'));
    const file = path.join(dir, 'probe.sql');
    const version = (n: number) =>
      fs.writeFileSync(file, `CREATE OR REPLACE FUNCTION eventlog_repeatable_probe() RETURNS int LANGUAGE sql AS $$ SELECT ${n} $$;\n`);
    const probe = async () => (await sql<{ n: number }[]>`SELECT eventlog_repeatable_probe() AS n`)[0]?.n;
    try {
      version(1);
      assert.equal((await applyRepeatable(sql, undefined, dir)).length, 1);
      assert.equal(await probe(), 1);
      assert.deepEqual(await applyRepeatable(sql, undefined, dir), [], 'the same content is not applied again');
      version(2);
      const applied = await applyRepeatable(sql, undefined, dir);
      assert.deepEqual(applied, [repeatableRecord('probe.sql', fs.readFileSync(file, 'utf8'))]);
      assert.equal(await probe(), 2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

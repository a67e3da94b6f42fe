import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createClient, type Sql } from '../../src/db/client.ts';
import { openDatabase } from '../../src/db/open.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { createOwnDatabase } from '../ownDatabase.ts';
import { cleanUp, embeddedEnv, externalEnv, jsonLine, runCli, tempDataDir } from '../storage/processes.ts';
import { waitUntil } from '../wait.ts';

// A database of the file's own: a backup of the runner's shared one would hold whatever the
// files before it wrote, and take minutes to restore on a loaded machine (seen in CI: 53 s).
const t = useTestApp({}, { ownDatabase: true });
after(cleanUp);

const MAX_INGEST = 3000;
/** A restore that fails takes a few seconds; a hang must fail its test with the command's output, well inside the file's timeout. */
const REFUSED_RESTORE_MS = 30_000;
const PADDING = 'x'.repeat(400);
const TRICKY = 'line one\nline two\ttab \\ backslash "quoted" ✓ \\. \r end';
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-backup-'));
after(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** A database beside the test's own, on the same server; dropped after the file. */
async function scratchDatabase(): Promise<string> {
  const scratch = await createOwnDatabase(process.env.DATABASE_URL!);
  after(() => scratch.drop());
  return scratch.url;
}

async function titles(sql: Sql, organizationId: string): Promise<Set<string>> {
  const rows = await sql<{ title: string }[]>`SELECT title FROM events WHERE organization_id = ${organizationId}`;
  return new Set(rows.map((row) => row.title));
}

/** Four writers posting events until stopped; `acknowledged` holds the titles answered 201. */
function ingest(org: TestOrg, project: string) {
  const acknowledged = new Set<string>();
  const attempted = new Set<string>();
  let stopped = false;
  let next = 0;
  const writer = async () => {
    // Bounded, so a slow backup on a loaded machine does not make every later step slow too.
    while (!stopped && next < MAX_INGEST) {
      const title = `ingest-${next++}`;
      attempted.add(title);
      // Rows of some size: COPY then sends many chunks, so the driver's stream fills and pauses.
      const reply = await org.post('/api/events', { project, category: 'load', title, description: PADDING, tags: { n: next } });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      acknowledged.add(title);
    }
  };
  const writers = Promise.all([writer(), writer(), writer(), writer()]);
  let failure: Error | undefined;
  writers.catch((error: unknown) => (failure = error instanceof Error ? error : new Error(String(error))));
  return {
    acknowledged,
    attempted,
    /** Resolves once `count` events are acknowledged; a failed write fails it. */
    async reached(count: number) {
      // A failed write ends the wait at once (a thrown error would only be retried until the timeout).
      const outcome = await waitUntil(() => failure ?? acknowledged.size >= count, { timeoutMs: 60_000, message: `${count} events acknowledged` });
      if (outcome instanceof Error) throw outcome;
    },
    async stop() {
      stopped = true;
      await writers;
    },
  };
}

const onCitus = process.env.EVENTLOG_TEST_STORE === 'citus';

describe('eventlog backup and restore on Citus', { skip: !onCitus && 'the store is not Citus' }, () => {
  it('refuses to back up, saying what to use instead, and writes no file', async () => {
    const file = path.join(workDir, 'citus.backup');
    const result = await runCli(['backup', file], externalEnv(t.databaseUrl, workDir));
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /does not back up a Citus cluster/);
    assert.match(result.stderr, /citus_create_restore_point/);
    assert.equal(fs.existsSync(file), false);
    assert.deepEqual(fs.readdirSync(workDir), []);
  });

  it('refuses to restore into a Citus database, saying how to get there instead', async () => {
    const file = path.join(workDir, 'plain.backup');
    fs.writeFileSync(file, gzipSync('{}\n'));
    try {
      const result = await runCli(['restore', file], externalEnv(await scratchDatabase(), workDir), '', REFUSED_RESTORE_MS);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /does not restore into a Citus database/);
    } finally {
      fs.rmSync(file);
    }
  });
});

describe('eventlog backup and restore', { skip: onCitus && 'Citus: refused, as the tests above show' }, () => {
  let backupFile: string;
  let org: TestOrg;
  let before: Set<string>;
  let attempted: Set<string>;

  it('backs up while events keep arriving, with every event acknowledged before it began', async () => {
    org = await t.org();
    const project = await org.project('Backed up');
    const tricky = await org.post('/api/events', { project, category: 'odd', title: 'tricky', description: TRICKY, metadata: { text: TRICKY } });
    assert.equal(tricky.status, 201);
    const load = ingest(org, project);
    await load.reached(200);
    before = new Set([...load.acknowledged, 'tricky']);
    backupFile = path.join(workDir, 'installation.backup');
    const result = await runCli(['backup', backupFile], externalEnv(t.databaseUrl, workDir));
    const countAfter = load.acknowledged.size;
    await load.stop();
    attempted = new Set([...load.attempted, 'tricky']);
    const printed = jsonLine(result);
    assert.equal(printed.file, backupFile);
    assert.equal(printed.bytes, fs.statSync(backupFile).size);
    assert.ok(countAfter > before.size, 'ingest kept going during the backup');
    assert.deepEqual(fs.readdirSync(workDir), ['installation.backup'], 'no partial file is left behind');
    const header = JSON.parse(gunzipSync(fs.readFileSync(backupFile)).toString('utf8').split('\n')[0]!);
    assert.equal(header.eventlog, 'backup');
    assert.match(header.migration, /^\d+_.+\.sql$/);
  });

  it('restores into an empty PostgreSQL database: every acknowledged event, values intact, keys working', async () => {
    const target = await scratchDatabase();
    const result = await runCli(['restore', backupFile], externalEnv(target, workDir));
    assert.deepEqual(jsonLine(result), { restored: true });
    const sql = createClient(target, { max: 2 });
    try {
      const restored = await titles(sql, org.id);
      for (const title of before) assert.ok(restored.has(title), `${title} was acknowledged before the backup and is missing`);
      for (const title of restored) assert.ok(attempted.has(title), `${title} was never written`);
      const [row] = await sql<{ description: string; metadata: { text: string } }[]>`
        SELECT description, metadata FROM events WHERE organization_id = ${org.id} AND title = 'tricky'`;
      assert.equal(row!.description, TRICKY);
      assert.equal(row!.metadata.text, TRICKY);
      const [keys] = await sql<{ count: number }[]>`SELECT count(*)::int AS count FROM api_keys WHERE organization_id = ${org.id}`;
      assert.equal(keys!.count, 1);
    } finally {
      await sql.end({ timeout: 5 });
    }
    // The restored store starts like any other: pending migrations run, then it serves.
    const opened = await openDatabase(loadConfig({ DATABASE_URL: target, TZ: 'UTC' }), { poolSize: 1 });
    await opened.close();
  });

  it('restores into a new embedded DATA_DIR, which then opens with the same data', async () => {
    const dataDir = tempDataDir('restore');
    const result = await runCli(['restore', backupFile], embeddedEnv(dataDir));
    assert.deepEqual(jsonLine(result), { restored: true }, result.stderr);
    const opened = await openDatabase(loadConfig({ DATA_DIR: dataDir, TZ: 'UTC' }), { poolSize: 1 });
    try {
      const restored = await titles(opened.sql, org.id);
      for (const title of before) assert.ok(restored.has(title), `${title} is missing`);
    } finally {
      await opened.close();
    }
  });

  it('fails, leaving the target empty, when PostgreSQL refuses a row of the file', async () => {
    const lines = gunzipSync(fs.readFileSync(backupFile)).toString('utf8').split('\n');
    const header = lines.findIndex((line) => line.startsWith('{"table":"events"'));
    assert.ok(header > 0 && !lines[header + 1]!.startsWith('\\.'), 'the backup holds events');
    // The same event twice: its primary key refuses the second.
    lines.splice(header + 1, 0, lines[header + 1]!);
    const clash = path.join(workDir, 'clash.backup');
    fs.writeFileSync(clash, gzipSync(lines.join('\n')));
    const target = await scratchDatabase();
    const failed = await runCli(['restore', clash], externalEnv(target, workDir), '', REFUSED_RESTORE_MS);
    assert.notEqual(failed.code, 0);
    await assertNoTables(target);
  });

  it('refuses a store that is not empty, and a file cut short leaves the target empty', async () => {
    const refused = await runCli(['restore', backupFile], externalEnv(t.databaseUrl, workDir), '', REFUSED_RESTORE_MS);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /not empty/);
    assert.equal(refused.stdout, '');

    const lines = gunzipSync(fs.readFileSync(backupFile)).toString('utf8').split('\n');
    const cut = path.join(workDir, 'cut.backup');
    fs.writeFileSync(cut, gzipSync(lines.slice(0, Math.floor(lines.length / 2)).join('\n')));
    const target = await scratchDatabase();
    const failed = await runCli(['restore', cut], externalEnv(target, workDir), '', REFUSED_RESTORE_MS);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /cut short/);
    await assertNoTables(target);
  });
});

async function assertNoTables(url: string): Promise<void> {
  const sql = createClient(url, { max: 1 });
  try {
    const [row] = await sql<{ count: number }[]>`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'`;
    assert.equal(row!.count, 0, 'a failed restore left tables behind');
  } finally {
    await sql.end({ timeout: 5 });
  }
}

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ServerProcess,
  cleanUp,
  embeddedEnv,
  externalEnv,
  isAlive,
  jsonLine,
  postmasterPid,
  readClusterFile,
  runCli,
  tempDataDir,
} from '../storage/processes.ts';
import { KEY_FORMAT, assertFailed, bootstrap, statusWithKey } from './support.ts';
import { ranInFirstPass } from '../onePass.ts';
import { waitUntil } from '../wait.ts';

/** The commands with no server running: on the embedded store they start PostgreSQL themselves. */

after(cleanUp);

describe('eventlog arguments and settings', { skip: ranInFirstPass }, () => {
  let env: NodeJS.ProcessEnv;
  let untouched: string;
  before(() => {
    untouched = path.join(tempDataDir('cli-untouched'), 'data');
    env = embeddedEnv(untouched);
  });

  it('answers an unknown command or wrong arguments with exit 2 and the usage, before any database work', async () => {
    const wrong = [
      ['frobnicate'],
      ['org', 'delete', 'x'],
      ['key'],
      ['org', 'create'],
      ['org', 'create', 'a', 'b'],
      ['key', 'list', 'x', '--bogus'],
      ['user', 'create', 'x@example.test'],
      ['serve', 'now'],
    ];
    const results = await Promise.all(wrong.map((args) => runCli(args, env)));
    for (const result of results) assertFailed(result, 2, /Usage: eventlog <command>/);
    const help = await runCli(['--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: eventlog <command>/);
    assert.equal(fs.existsSync(untouched), false, 'a usage error must not start the database');
  });

  it('refuses a bad --monthly-event-cap with a message and a non-zero exit', async () => {
    const caps = ['abc', '1.5', '-5', '1e3', '99999999999', ''];
    const results = await Promise.all([
      ...caps.map((cap) => runCli(['org', 'create', 'Acme', `--monthly-event-cap=${cap}`], env)),
      runCli(['org', 'create', 'Acme', '--monthly-event-cap'], env),
    ]);
    for (const result of results) assertFailed(result, 'non-zero', /monthly-event-cap/);
    assert.equal(fs.existsSync(untouched), false, 'a usage error must not start the database');
  });

  it('fails with a message when the settings or the database are unusable', async () => {
    const [port, scheme, unreachable] = await Promise.all([
      runCli(['key', 'list', 'x'], { ...env, PORT: 'eighty' }),
      runCli(['key', 'list', 'x'], { ...env, DATABASE_URL: 'mysql://x' }),
      runCli(['key', 'list', 'x'], { ...env, DATABASE_URL: 'postgres://127.0.0.1:1/none' }),
    ]);
    assertFailed(port, 1, /PORT/);
    assertFailed(scheme, 1, /DATABASE_URL/);
    assertFailed(unreachable, 1, /cannot open the database/);
  });
});

describe('eventlog commands on the embedded store with no server running', { skip: ranInFirstPass }, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dataDir = tempDataDir('cli');
    env = embeddedEnv(dataDir);
  });

  it('bootstraps an organization: the commands start and stop PostgreSQL themselves', async () => {
    const { orgId, keyId, key } = await bootstrap(env);
    assert.match(key, KEY_FORMAT);
    const keys = jsonLine(await runCli(['key', 'list', orgId], env)).keys as Array<Record<string, unknown>>;
    assert.deepEqual(
      keys.map((k) => k.id),
      [keyId],
    );
    const user = jsonLine(await runCli(['user', 'create', 'first@example.test', '--org', orgId], env, 'a long enough password\n'));
    assert.equal(user.email, 'first@example.test');
    const pid = postmasterPid(dataDir);
    assert.ok(pid === null || !isAlive(pid), 'the command stopped the cluster it started');
    assert.equal(readClusterFile(dataDir).ownerPid, null);
  });

  it('runs commands started at the same moment one after another, each on a working cluster', async () => {
    const results = await Promise.all([1, 2, 3].map((i) => runCli(['org', 'create', `Parallel ${i}`], env)));
    const names = results.map((result) => jsonLine(result).name).sort();
    assert.deepEqual(names, ['Parallel 1', 'Parallel 2', 'Parallel 3']);
  });
});

describe('eventlog commands with DATABASE_URL', () => {
  const databaseUrl = process.env.DATABASE_URL;
  const store = process.env.EVENTLOG_TEST_STORE ?? 'unknown';

  it(
    `bootstrap an organization on the PostgreSQL the runner provides (${store}), beside a server using it`,
    { skip: !databaseUrl && 'DATABASE_URL is not set' },
    async () => {
      const dataDir = tempDataDir('cli-external');
      const env = externalEnv(databaseUrl!, dataDir);
      const server = await ServerProcess.start(env);
      try {
        await server.healthy();
        const { orgId, keyId, key } = await bootstrap(env);
        assert.equal(await statusWithKey(server, key), 200);
        const keys = jsonLine(await runCli(['key', 'list', orgId], env)).keys as Array<Record<string, unknown>>;
        assert.deepEqual(
          keys.map((k) => k.id),
          [keyId],
        );
        jsonLine(await runCli(['key', 'revoke', keyId], env));
        await waitUntil(async () => (await statusWithKey(server, key)) === 401, { timeoutMs: 3_000, message: 'the revoked key to be refused' });
      } finally {
        assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
      }
      assert.deepEqual(fs.readdirSync(dataDir), [], 'with DATABASE_URL nothing is written to DATA_DIR');
    },
  );
});

// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ServerProcess, cleanUp, embeddedEnv, isAlive, jsonLine, postmasterPid, readClusterFile, runCli, tempDataDir } from '../storage/processes.ts';
import { KEY_FORMAT, assertFailed, bootstrap, statusWithKey } from './support.ts';
import { waitUntil } from '../wait.ts';

/**
 * The commands of operations.md, run as child processes while `eventlog serve` runs on the same
 * embedded DATA_DIR (the commands use the server's PostgreSQL, which keeps them quick).
 */

after(cleanUp);

describe('eventlog commands beside a running server on the same DATA_DIR', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess;
  let postmaster: number | null;
  before(async () => {
    dataDir = tempDataDir('cli-server');
    env = embeddedEnv(dataDir);
    server = await ServerProcess.start(env);
    await server.healthy();
    postmaster = postmasterPid(dataDir);
  });

  it('org create prints {id, name, monthlyEventCap}, with and without a cap', async () => {
    const [plain, capped, zero] = await Promise.all([
      runCli(['org', 'create', 'Acme Inc'], env),
      runCli(['org', 'create', 'Capped', '--monthly-event-cap', '5000'], env),
      runCli(['org', 'create', 'Frozen', '--monthly-event-cap=0'], env),
    ]).then((results) => results.map(jsonLine));
    assert.deepEqual(Object.keys(plain!), ['id', 'name', 'monthlyEventCap']);
    assert.equal(plain!.name, 'Acme Inc');
    assert.equal(plain!.monthlyEventCap, null);
    assert.match(String(plain!.id), /^[a-z0-9]+$/);
    assert.equal(capped!.monthlyEventCap, 5000);
    assert.equal(zero!.monthlyEventCap, 0);
    assert.equal(new Set([plain!.id, capped!.id, zero!.id]).size, 3);
    assertFailed(await runCli(['org', 'create', '   '], env), 'non-zero', /name/);
  });

  it('key create prints an ev_ key of 8-4-4-4-12 whose prefix is its first 12 characters', async () => {
    const org = jsonLine(await runCli(['org', 'create', 'Keys'], env));
    const [first, second] = (await Promise.all([runCli(['key', 'create', String(org.id)], env), runCli(['key', 'create', String(org.id)], env)])).map(jsonLine);
    assert.deepEqual(Object.keys(first!), ['id', 'key', 'prefix']);
    assert.match(String(first!.key), KEY_FORMAT);
    assert.equal(first!.prefix, String(first!.key).slice(0, 12));
    assert.notEqual(second!.key, first!.key);
    assertFailed(await runCli(['key', 'create', 'nosuchorg'], env), 'non-zero', /Organization not found/);
  });

  it('key list shows id, prefix and dates, never the plaintext or its hash; lastUsedAt follows use', async () => {
    const { orgId, keyId, key } = await bootstrap(env);
    const result = await runCli(['key', 'list', orgId], env);
    const listed = jsonLine(result);
    assert.deepEqual(Object.keys(listed), ['keys']);
    const keys = listed.keys as Array<Record<string, unknown>>;
    assert.equal(keys.length, 1);
    assert.deepEqual(Object.keys(keys[0]!).sort(), ['createdAt', 'id', 'lastUsedAt', 'prefix', 'revokedAt']);
    assert.equal(keys[0]!.id, keyId);
    assert.equal(keys[0]!.prefix, key.slice(0, 12));
    assert.equal(keys[0]!.revokedAt, null);
    assert.equal(keys[0]!.lastUsedAt, null);
    assert.match(String(keys[0]!.createdAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const hash = crypto.createHash('sha256').update(key).digest();
    for (const secret of [key, key.slice(12), hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')]) {
      assert.equal(result.stdout.includes(secret), false, 'key list must not print the key or its hash');
    }
    assertFailed(await runCli(['key', 'list', 'nosuchorg'], env), 'non-zero', /Organization not found/);

    assert.equal(await statusWithKey(server, key), 200);
    await waitUntil(
      async () => {
        const [row] = jsonLine(await runCli(['key', 'list', orgId], env)).keys as Array<Record<string, unknown>>;
        return typeof row!.lastUsedAt === 'string';
      },
      { timeoutMs: 15_000, message: 'lastUsedAt to be stamped' },
    );
  });

  it('key revoke prints {id, revokedAt} and shuts the key out of the running server at once', async () => {
    const { orgId, keyId, key } = await bootstrap(env);
    assert.equal(await statusWithKey(server, key), 200, 'the key works and is now cached by the server');
    const revoked = jsonLine(await runCli(['key', 'revoke', keyId], env));
    assert.deepEqual(Object.keys(revoked), ['id', 'revokedAt']);
    assert.equal(revoked.id, keyId);
    assert.match(String(revoked.revokedAt), /^\d{4}-\d{2}-\d{2}T/);
    // The revocation reaches the server's key cache through NOTIFY, not its 30 s expiry.
    await waitUntil(async () => (await statusWithKey(server, key)) === 401, { timeoutMs: 3_000, message: 'the revoked key to be refused' });

    const [again, listed, unknown] = await Promise.all([
      runCli(['key', 'revoke', keyId], env),
      runCli(['key', 'list', orgId], env),
      runCli(['key', 'revoke', 'nosuchkey'], env),
    ]);
    assert.deepEqual(jsonLine(again), revoked, 'revoking twice keeps the first time');
    assert.equal((jsonLine(listed).keys as Array<Record<string, unknown>>)[0]!.revokedAt, revoked.revokedAt);
    assertFailed(unknown, 'non-zero', /not found/);
  });

  it('user create reads the password from stdin and never prints it', async () => {
    const { orgId } = await bootstrap(env);
    const password = 'correct horse battery';
    const result = await runCli(['user', 'create', 'Ops@Example.test', '--org', orgId], env, `${password}\n`);
    const user = jsonLine(result);
    assert.deepEqual(Object.keys(user), ['id', 'email']);
    assert.equal(user.email, 'Ops@Example.test');
    assert.equal(`${result.stdout}${result.stderr}`.includes(password), false);

    const failures = await Promise.all([
      runCli(['user', 'create', 'ops@example.test', '--org', orgId], env, `${password}\n`),
      runCli(['user', 'create', 'short@example.test', '--org', orgId], env, 'short\n'),
      runCli(['user', 'create', 'empty@example.test', '--org', orgId], env),
      runCli(['user', 'create', 'not-an-email', '--org', orgId], env, `${password}\n`),
      runCli(['user', 'create', 'x@example.test', '--org', 'nosuchorg'], env, `${password}\n`),
    ]);
    const expected = [/already exists/, /at least 8/, /at least 8/, /email/, /Organization not found/];
    failures.forEach((failure, i) => assertFailed(failure, 'non-zero', expected[i]!));
  });

  it("ran every command on the server's PostgreSQL, which kept running", async () => {
    assert.equal(postmasterPid(dataDir), postmaster);
    assert.ok(isAlive(postmaster));
    assert.equal(readClusterFile(dataDir).ownerPid, server.pid);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  it('keeps everything for the next command once the server has stopped', async () => {
    const { orgId, keyId } = await bootstrap(env);
    assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    const keys = jsonLine(await runCli(['key', 'list', orgId], env)).keys as Array<Record<string, unknown>>;
    assert.deepEqual(
      keys.map((k) => k.id),
      [keyId],
    );
  });
});

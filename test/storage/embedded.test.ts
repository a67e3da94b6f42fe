// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { ServerProcess, cleanUp, embeddedEnv, isAlive, jsonLine, postmasterPid, readClusterFile, runCli, stopServers, tempDataDir } from './processes.ts';
import { sleep, waitUntil } from '../wait.ts';

after(cleanUp);
afterEach(stopServers);

/** A connection to the embedded cluster with the credentials the server recorded. */
function clusterSql(dataDir: string, options: { password?: string; host?: string } = {}) {
  const file = readClusterFile(dataDir);
  return postgres({
    host: options.host ?? '127.0.0.1',
    port: file.port,
    user: 'eventlog',
    password: options.password ?? file.password,
    database: 'eventlog',
    max: 1,
    connect_timeout: 5,
    onnotice: () => {},
  });
}

/** The server's PostgreSQL is gone: no process, no lock file, no owner in cluster.json. */
function assertClusterStopped(dataDir: string, postmaster: number | null) {
  assert.ok(postmaster, 'a postmaster ran');
  assert.equal(isAlive(postmaster), false, `PostgreSQL (pid ${postmaster}) is still running`);
  assert.equal(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), false);
  assert.equal(readClusterFile(dataDir).ownerPid, null);
}

/** An org and a key made with the command line beside the running server. */
async function bootstrapKey(env: NodeJS.ProcessEnv): Promise<string> {
  const org = jsonLine(await runCli(['org', 'create', 'Storage'], env));
  return String(jsonLine(await runCli(['key', 'create', String(org.id)], env)).key);
}

/**
 * A POST whose body is held back until `finish`, so the request is in flight while the test
 * sends a signal. `Expect: 100-continue` makes the server say when it has taken the request
 * (its headers parsed and routed). `response` is the raw HTTP reply.
 */
async function slowPost(port: number, url: string, key: string, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
  const ended = once(socket, 'close').then(() => response);
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  await waitUntil(() => response.startsWith('HTTP/1.1 100 Continue'), { timeoutMs: 10_000, message: '100 Continue' });
  return { finish: () => socket.write(body), response: ended };
}

describe('the embedded PostgreSQL of `eventlog serve`', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dataDir = tempDataDir('storage');
    env = embeddedEnv(dataDir, { LOG_LEVEL: 'debug' });
  });

  it('initialises the cluster on the first start and reuses it, data included, on the next', async (t) => {
    const first = await ServerProcess.start(env);
    await first.healthy();
    assert.match(first.output, /initialising PostgreSQL/);
    const versionFile = path.join(dataDir, 'pg', 'PG_VERSION');
    const initialisedAt = fs.statSync(versionFile).mtimeMs;
    const org = jsonLine(await runCli(['org', 'create', 'Persisted'], env));
    assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });

    const startedAt = Date.now();
    const second = await ServerProcess.start(env);
    await second.healthy();
    const startMs = Date.now() - startedAt;
    assert.doesNotMatch(second.output, /initialising PostgreSQL/);
    assert.equal(fs.statSync(versionFile).mtimeMs, initialisedAt);
    t.diagnostic(`a start on the initialised cluster took ${startMs} ms`);
    // Generous: CI machines are slow and busy; an initdb would show above, not here.
    assert.ok(startMs < 30_000, `a start on an initialised cluster took ${startMs} ms`);
    const sql = clusterSql(dataDir);
    try {
      const rows = await sql`SELECT name FROM organizations WHERE id = ${String(org.id)}`;
      assert.deepEqual([...rows], [{ name: 'Persisted' }]);
    } finally {
      await sql.end();
    }
    assert.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null });
  });

  it('listens on 127.0.0.1 only, on a free port (not 5432) recorded in cluster.json of mode 0600', async () => {
    const server = await ServerProcess.start(env);
    await server.healthy();
    try {
      const file = readClusterFile(dataDir);
      assert.equal(fs.statSync(path.join(dataDir, 'cluster.json')).mode & 0o777, 0o600);
      assert.notEqual(file.port, 5432);
      assert.equal(file.ownerPid, server.pid);
      assert.ok(file.password.length >= 24, 'a random password');
      const lockLines = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
      assert.equal(Number(lockLines[3]), file.port, 'PostgreSQL runs on the recorded port');
      assert.equal(fs.statSync(path.join(dataDir, 'pg')).mode & 0o077, 0, 'the PostgreSQL data is private');

      const sql = clusterSql(dataDir);
      try {
        const [listen] = await sql`SELECT current_setting('listen_addresses') AS addresses, current_setting('unix_socket_directories') AS sockets`;
        assert.deepEqual({ ...listen }, { addresses: '127.0.0.1', sockets: '' });
      } finally {
        await sql.end();
      }
      const wrong = clusterSql(dataDir, { password: 'not-the-password' });
      await assert.rejects(wrong`SELECT 1`, /password authentication failed/);
      await wrong.end();

      const outside = Object.values(os.networkInterfaces())
        .flat()
        .filter((a) => a && !a.internal && a.family === 'IPv4')
        .map((a) => a!.address);
      for (const address of outside) {
        const socket = net.connect(file.port, address);
        const [error] = (await once(socket, 'error').catch((e: unknown) => [e])) as [NodeJS.ErrnoException];
        assert.equal(error.code, 'ECONNREFUSED', `PostgreSQL must not answer on ${address}`);
      }
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('answers GET /healthz with 200 {"ok":true} and no credentials once it is up', async () => {
    const server = await ServerProcess.start(env);
    try {
      await server.healthy();
      const reply = await fetch(`${server.url}/healthz`);
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await reply.json(), { ok: true });
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('on SIGTERM finishes the request in flight, then exits 0 with PostgreSQL stopped', async () => {
    const server = await ServerProcess.start(env);
    await server.healthy();
    const key = await bootstrapKey(env);
    const postmaster = postmasterPid(dataDir);
    const request = await slowPost(server.port, '/api/projects', key, JSON.stringify({ name: 'In flight' }));
    server.child.kill('SIGTERM');
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(server.child.exitCode, null, 'the server waits for the request in flight');
    request.finish();
    const response = await request.response;
    assert.match(response, /\r\n\r\nHTTP\/1\.1 201 /, response);
    assert.match(response, /"name":"In flight"/);
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assertClusterStopped(dataDir, postmaster);
  });

  it('on SIGINT stops gracefully too, with exit code 0 and PostgreSQL stopped', async () => {
    const server = await ServerProcess.start(env);
    await server.healthy();
    const postmaster = postmasterPid(dataDir);
    assert.deepEqual(await server.stop('SIGINT'), { code: 0, signal: null });
    assertClusterStopped(dataDir, postmaster);
  });

  it('on a terminal Ctrl-C (SIGINT to the whole job) finishes the request in flight before PostgreSQL stops', async () => {
    const server = await ServerProcess.start(env, { asTerminalJob: true });
    await server.healthy();
    const key = await bootstrapKey(env);
    const postmaster = postmasterPid(dataDir);
    const request = await slowPost(server.port, '/api/projects', key, JSON.stringify({ name: 'Ctrl-C' }));
    server.interruptJob();
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(server.child.exitCode, null, 'the server waits for the request in flight');
    assert.ok(isAlive(postmaster), 'PostgreSQL is not in the job: it keeps serving the request in flight');
    request.finish();
    const response = await request.response;
    assert.match(response, /\r\n\r\nHTTP\/1\.1 201 /, response);
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assertClusterStopped(dataDir, postmaster);
  });

  it('recovers from a SIGKILLed server: the PostgreSQL it left behind is stopped and the next start works', async () => {
    const killed = await ServerProcess.start(env);
    await killed.healthy();
    const orphan = postmasterPid(dataDir);
    assert.deepEqual(await killed.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
    assert.ok(isAlive(orphan), 'PostgreSQL outlives a SIGKILLed server');

    const next = await ServerProcess.start(env);
    await next.healthy();
    assert.match(next.output, /left running by a previous process/);
    assert.equal(isAlive(orphan), false, 'the orphan was stopped');
    const postmaster = postmasterPid(dataDir);
    assert.notEqual(postmaster, orphan);
    assert.equal(readClusterFile(dataDir).ownerPid, next.pid);
    assert.deepEqual(await next.stop('SIGTERM'), { code: 0, signal: null });
    assertClusterStopped(dataDir, postmaster);
  });

  it('refuses a second server on the same DATA_DIR with a clear message, leaving the first alone', async () => {
    const first = await ServerProcess.start(env);
    await first.healthy();
    try {
      const second = await ServerProcess.start(env);
      const exit = await second.exited;
      assert.notEqual(exit.code, 0);
      assert.match(second.output, new RegExp(`Another eventlog server \\(pid ${first.pid}\\) is running the database`));
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    } finally {
      assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });
    }
  });

  it('is not fooled by files that name a pid now used by another process (a restarted container)', async () => {
    // What a crash leaves behind, after the pids were handed out again to unrelated processes.
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const pgData = path.join(dataDir, 'pg');
      fs.writeFileSync(path.join(pgData, 'postmaster.pid'), `${unrelated.pid}\n${pgData}\n0\n5432\n\n127.0.0.1\n0 0\nready\n`);
      const file = readClusterFile(dataDir);
      fs.writeFileSync(path.join(dataDir, 'cluster.json'), JSON.stringify({ ...file, ownerPid: unrelated.pid, ownerStart: '1', ownerRole: 'server' }), {
        mode: 0o600,
      });
      const server = await ServerProcess.start(env);
      await server.healthy();
      assert.equal(unrelated.exitCode, null, 'the unrelated process was left alone');
      assert.ok(isAlive(unrelated.pid));
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    } finally {
      unrelated.kill('SIGKILL');
    }
  });
});

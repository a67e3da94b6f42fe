import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT, freePort } from '../storage/processes.ts';
import { waitUntil } from '../wait.ts';

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<void>;
}

const running = new Set<Started>();
after(async () => Promise.all([...running].map((server) => server.stop())));

/** `eventlog serve` on the test's DATABASE_URL, stdout and stderr kept apart. */
async function serve(extra: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const databaseUrl = process.env.DATABASE_URL;
  assert.ok(databaseUrl, 'run with npm test: it provides DATABASE_URL');
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/eventlog.js'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      BASE_URL: `http://localhost:${port}`,
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const started: Started = {
    child,
    url: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      running.delete(started);
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  running.add(started);
  await waitUntil(() => /ready/i.test(stdout + stderr) || child.exitCode !== null, { timeoutMs: 60_000, message: 'the ready line' });
  assert.equal(child.exitCode, null, `the server exited:\n${stdout}\n${stderr}`);
  return started;
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a friendly start', () => {
  it('JSON logs: one structured ready line; health probes at debug, API requests at info with their id', async () => {
    const server = await serve({ LOG_FORMAT: 'json', METRICS_TOKEN: '' });
    const ready = jsonLines(server.stdout()).find((line) => line.msg === 'ready');
    assert.ok(ready, server.stdout());
    assert.equal(ready.dashboard, `http://localhost:${new URL(server.url).port}/app/`);
    assert.equal(typeof ready.setupNeeded, 'boolean');
    assert.match(String(ready.database), /^PostgreSQL at [^@]+\//);
    const password = new URL(process.env.DATABASE_URL!).password;
    if (password) assert.ok(!server.stdout().includes(password), 'the database password reached the log');
    // Not a terminal and JSON asked for: no human line.
    assert.doesNotMatch(server.stderr(), /Eventlog is ready/);

    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    await (await fetch(`${server.url}/api/projects`)).arrayBuffer();
    await waitUntil(() => jsonLines(server.stdout()).some((line) => line.msg === 'request completed'), { timeoutMs: 15_000, message: 'the request line' });
    const requests = jsonLines(server.stdout()).filter((line) => line.msg === 'request completed');
    assert.equal(requests.length, 1, JSON.stringify(requests));
    const [request] = requests;
    assert.equal(request!.statusCode, 401);
    assert.equal((request!.req as { url: string }).url, '/api/projects');
    assert.ok(request!.reqId, 'the request id is on the line');
    assert.ok(!jsonLines(server.stdout()).some((line) => line.msg === 'incoming request'), 'Fastify still logs every request twice');
    // Without METRICS_TOKEN there is no /metrics at all.
    assert.equal((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer ' } })).status, 404);
    await server.stop();
  });

  it('LOG_FORMAT=pretty: readable lines and the human ready line on stderr, without the password', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const server = await serve({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    await waitUntil(() => server.stdout().includes('GET /healthz'), { timeoutMs: 15_000, message: 'the health probe line' });
    const line = server
      .stderr()
      .split('\n')
      .find((text) => text.startsWith('Eventlog is ready'));
    assert.ok(line, server.stderr());
    assert.match(line, new RegExp(`http://localhost:${new URL(server.url).port}/app/ \\((open it to create the first account|sign in there)\\)`));
    assert.ok(line.includes(`PostgreSQL at ${url.host}${url.pathname}`), line);
    if (url.password) assert.ok(!(server.stderr() + server.stdout()).includes(url.password));
    const probe = server
      .stdout()
      .split('\n')
      .find((text) => text.includes('GET /healthz'));
    assert.match(probe!, /^\d\d:\d\d:\d\d\.\d{3} DEBUG \[[^\]]+\] GET \/healthz 200 \d+\.\dms request completed$/);
    assert.ok(
      !server
        .stdout()
        .split('\n')
        .some((text) => text.startsWith('{')),
      'a JSON line in pretty output',
    );
    await server.stop();
  });
});

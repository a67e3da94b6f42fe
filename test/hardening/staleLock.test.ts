// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { isAlive as ownerAlive, processStart } from '../../src/db/processes.ts';
import { ROOT, ServerProcess, embeddedEnv, freePort, readClusterFile, stopServers, tempDataDir } from '../storage/processes.ts';
import { waitUntil } from '../wait.ts';

const state = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return null;
  }
};

/**
 * `eventlog serve` whose parent never reaps it: the shell starts the server in the background and
 * becomes `sleep`, so a killed server stays a zombie for as long as the sleep lasts.
 */
function serverUnderNeglectfulParent(env: NodeJS.ProcessEnv, port: number) {
  const parent = spawn('sh', ['-c', `"${process.execPath}" bin/eventlog.js serve >/dev/null 2>&1 & echo $!; exec sleep 300`], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pid = new Promise<number>((resolve) => parent.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim()))));
  return { parent, pid };
}

const parents: Array<{ kill(): void }> = [];
afterEach(stopServers);
after(() => parents.forEach((parent) => parent.kill()));

describe('a stale lock from a killed server', () => {
  it('never blocks a start, even while the killed server is an unreaped zombie', async () => {
    const dataDir = tempDataDir('zombie');
    const env = embeddedEnv(dataDir);
    const port = await freePort();
    const { parent, pid: serverPid } = serverUnderNeglectfulParent(env, port);
    parents.push(parent);
    const pid = await serverPid;
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200, {
      timeoutMs: 60_000,
      message: 'the first server',
    });
    assert.equal(readClusterFile(dataDir).ownerPid, pid);
    const start = processStart(pid);

    process.kill(pid, 'SIGKILL');
    await waitUntil(() => state(pid) === 'Z', { timeoutMs: 15_000, message: 'the killed server to become a zombie' });
    assert.equal(ownerAlive(pid), false, 'a zombie holds nothing');
    // The start lock it might have held at the moment it died names it too.
    fs.writeFileSync(path.join(dataDir, 'start.lock'), JSON.stringify({ pid, start }));

    const next = await ServerProcess.start(env);
    await next.healthy(60_000);
    assert.equal(state(pid), 'Z', 'the zombie was still there while the next server started');
    assert.equal(readClusterFile(dataDir).ownerPid, next.pid);
    assert.deepEqual(await next.stop('SIGTERM'), { code: 0, signal: null });
  });
});

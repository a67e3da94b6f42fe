// What the stop tests check: the server exited 0 and no PostgreSQL of its data directory is left.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { ServerProcess, cleanUp, embeddedEnv, postmasterPid, stopServers, tempDataDir } from './processes.ts';
import { sleep, waitUntil } from '../wait.ts';

/** Every live process started on this data directory: the postmaster and anything it left. */
export function postgresOf(dataDir: string): number[] {
  const pg = path.join(dataDir, 'pg');
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        if (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')) return false;
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(pg);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function expectNothingLeft(dataDir: string, server: ServerProcess, when: string) {
  // A limit, not a wait: an exit later than this is a hang.
  const exit = await Promise.race([server.exited, sleep(15_000).then(() => 'hung' as const)]);
  assert.notEqual(exit, 'hung', `${when}: the server did not exit:\n${server.output.slice(-3000)}`);
  assert.deepEqual(exit, { code: 0, signal: null }, `${when}: ${server.output.slice(-3000)}`);
  // The postmaster exited before the server did; its backends may need a moment more.
  const left = await waitUntil(() => (postgresOf(dataDir).length === 0 ? 'none' : null), { timeoutMs: 5000, message: `no PostgreSQL of ${dataDir}` }).catch(
    () => postgresOf(dataDir),
  );
  assert.equal(left, 'none', `${when}: PostgreSQL left running: ${JSON.stringify(left)}\n${server.output.slice(-3000)}`);
}

/**
 * SIGTERM (sent twice: a second signal during the stop changes nothing) at each delay after the
 * embedded postmaster is killed, each on a server just started on `dataDirName`'s directory; the
 * restart loop's phases (its first wait of 250 ms, the new postmaster's start, the moments right
 * after it is up again) are hit by the delays the caller picks.
 */
export function stopDuringRestart(dataDirName: string, delaysMs: number[]): void {
  after(cleanUp);
  afterEach(stopServers);
  describe('SIGTERM while the embedded PostgreSQL restarts', () => {
    it(`stops everything, at ${delaysMs.length} moments of the restart loop`, { timeout: 115_000 }, async () => {
      const dataDir = tempDataDir(dataDirName);
      for (const delay of delaysMs) {
        const server = await ServerProcess.start(embeddedEnv(dataDir, { LOG_LEVEL: 'info' }));
        await server.healthy(60_000);
        const postmaster = postmasterPid(dataDir);
        assert.ok(postmaster, 'the server started PostgreSQL');
        process.kill(postmaster, 'SIGKILL');
        // Time itself: the moment of the restart loop this stop hits.
        await sleep(delay);
        server.child.kill('SIGTERM');
        await sleep(20);
        server.child.kill('SIGTERM');
        await expectNothingLeft(dataDir, server, `SIGTERM ${delay} ms after the kill`);
      }
    });
  });
}

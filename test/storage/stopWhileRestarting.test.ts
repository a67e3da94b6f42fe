// A stop always stops what the server started, whatever its embedded PostgreSQL is doing
// (decision 140): SIGTERM lands at random moments of the restart loop after the postmaster is
// killed (waiting to restart, starting again, just up again), and during the first start;
// afterwards no PostgreSQL of the data directory is left, and the server exited 0.
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { ServerProcess, cleanUp, embeddedEnv, postmasterPid, stopServers, tempDataDir } from './processes.ts';
import { expectNothingLeft, sleep } from './stopChecks.ts';

after(cleanUp);
afterEach(stopServers);

describe('SIGTERM while the embedded PostgreSQL restarts', () => {
  // Delays after the kill that land in each phase: the restart's first wait (250 ms), the new
  // postmaster's start, and the moments right after it is up again.
  const DELAYS_MS = [0, 400];

  it(`stops everything, at ${DELAYS_MS.length} moments of the restart loop`, { timeout: 115_000 }, async () => {
    const dataDir = tempDataDir('stop-restart');
    for (const delay of DELAYS_MS) {
      const server = await ServerProcess.start(embeddedEnv(dataDir, { LOG_LEVEL: 'info' }));
      await server.healthy(60_000);
      const postmaster = postmasterPid(dataDir);
      assert.ok(postmaster, 'the server started PostgreSQL');
      process.kill(postmaster, 'SIGKILL');
      await sleep(delay);
      // Sent twice: a second signal during the stop changes nothing.
      server.child.kill('SIGTERM');
      await sleep(20);
      server.child.kill('SIGTERM');
      await expectNothingLeft(dataDir, server, `SIGTERM ${delay} ms after the kill`);
    }
  });
});

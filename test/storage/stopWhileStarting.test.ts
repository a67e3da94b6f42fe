// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
// A stop always stops what the server started (decision 140): SIGTERM while the embedded
// PostgreSQL is still starting (right after the server wrote the cluster file, before and while
// PostgreSQL comes up) leaves no PostgreSQL of the data directory behind, and the server exits 0.
import { after, afterEach, describe, it } from 'node:test';
import { ServerProcess, cleanUp, embeddedEnv, readClusterFile, stopServers, tempDataDir } from './processes.ts';
import { expectNothingLeft } from './stopChecks.ts';
import { sleep, waitUntil } from '../wait.ts';

after(cleanUp);
afterEach(stopServers);

describe('SIGTERM while the embedded PostgreSQL starts', () => {
  it('stops everything when SIGTERM arrives while PostgreSQL is starting', { timeout: 115_000 }, async () => {
    const dataDir = tempDataDir('stop-start');
    // Once initialised, each start writes the cluster file with its pid, then starts PostgreSQL.
    const first = await ServerProcess.start(embeddedEnv(dataDir, { LOG_LEVEL: 'info' }));
    await first.healthy(60_000);
    await first.stop('SIGTERM');
    for (const delay of [0, 150]) {
      const server = await ServerProcess.start(embeddedEnv(dataDir, { LOG_LEVEL: 'info' }));
      await waitUntil(
        () => {
          try {
            return readClusterFile(dataDir).ownerPid === server.pid;
          } catch {
            return false;
          }
        },
        { timeoutMs: 30_000, message: 'the cluster file naming the new server' },
      );
      // Time itself: the moment of PostgreSQL's start this stop hits.
      await sleep(delay);
      server.child.kill('SIGTERM');
      await expectNothingLeft(dataDir, server, `SIGTERM ${delay} ms into PostgreSQL's start`);
    }
  });
});

// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
// A stop always stops what the server started, whatever its embedded PostgreSQL is doing
// (decision 140): SIGTERM lands at moments of the restart loop after the postmaster is killed;
// afterwards no PostgreSQL of the data directory is left, and the server exited 0. The later
// moments are in stopWhileRestartingLate.test.ts.
import { stopDuringRestart } from './stopChecks.ts';

stopDuringRestart('stop-restart', [0, 400]);

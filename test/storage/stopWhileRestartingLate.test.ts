// npm test runs this file in one pass only: its servers run on embedded clusters of their own, whatever the store (decision 230).
// The later moments of test/storage/stopWhileRestarting.test.ts (two files, so each stays inside
// the runner's per-file timeout while a server takes 15 s to start on a loaded machine).
import { stopDuringRestart } from './stopChecks.ts';

stopDuringRestart('stop-restart-late', [150, 900]);

// The later moments of test/storage/stopWhileRestarting.test.ts (two files, so each stays inside
// the runner's per-file timeout while a server takes 15 s to start on a loaded machine).
import { stopDuringRestart } from './stopChecks.ts';

stopDuringRestart('stop-restart-late', [150, 900]);

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './measure.ts';

const SCRIPTS = path.resolve(ROOT, '../shared/citus');
const COORDINATOR_PORT = 55_433;
const WORKER_PORT = 55_434;

/**
 * A Citus coordinator + one worker for the bench, kept in `dir` so that a loaded data set is
 * reused like the embedded store's; started now, stopped by stop(). Citus must be installed
 * (../shared/citus/install.sh). Distributes with Citus's default of 32 shards per table.
 */
export function startCitusCluster(dir: string): { url: string; stop(): void } {
  const script = path.join(SCRIPTS, 'cluster.sh');
  if (!fs.existsSync(script)) throw new Error(`--store citus needs ${path.relative(ROOT, script)} (and Citus installed by its install.sh)`);
  const run = (...args: string[]) => execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const urlFile = path.join(dir, 'database.url');
  run('start', dir, String(COORDINATOR_PORT), String(WORKER_PORT));
  try {
    if (!fs.existsSync(urlFile)) fs.writeFileSync(urlFile, run('createdb', dir, 'eventlog_bench'));
  } catch (error) {
    run('stop', dir);
    throw error;
  }
  return { url: fs.readFileSync(urlFile, 'utf8').trim(), stop: () => void run('stop', dir) };
}

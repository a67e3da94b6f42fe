import fs from 'node:fs/promises';
import path from 'node:path';
import { commandLine, isAlive, isUnreaped, sleep, waitForExit } from './processes.ts';

// A postmaster that an earlier process left behind in DATA_DIR: still running (orphaned by a
// crashed owner) or killed and not yet reaped. Either one stops PostgreSQL from starting.

/**
 * The postmaster recorded in the data directory's lock file, if it is still running. After a
 * crash or a container restart the recorded pid may belong to an unrelated process (even this
 * one): on Linux the process must have been started on this data directory, and a lock file
 * that names anything else is removed, since PostgreSQL would refuse to start beside it.
 */
export async function runningPostmaster(pgData: string): Promise<number | null> {
  const pid = await lockFilePid(pgData);
  if (pid === null || !isAlive(pid)) return null;
  const argv = commandLine(pid);
  if (argv === null || argv.includes(pgData)) return pid;
  await fs.rm(lockFile(pgData), { force: true });
  return null;
}

const lockFile = (pgData: string) => path.join(pgData, 'postmaster.pid');

/** The pid on the first line of PostgreSQL's lock file; null when there is no file or no pid in it. */
async function lockFilePid(pgData: string): Promise<number | null> {
  const pid = Number((await fs.readFile(lockFile(pgData), 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** How long a killed postmaster may stay unreaped before its lock file is treated as stale. */
const REAP_WAIT_MS = 10_000;

/**
 * A postmaster killed together with its server is reparented to init, which reaps it when it
 * gets round to it (about 2 s on these machines). Until then the zombie still answers signal 0
 * and PostgreSQL refuses to start beside its lock file, so it is waited for: once it is gone,
 * PostgreSQL's own check of the old shared memory segment decides. A zombie nobody reaps holds
 * nothing, and its lock file is removed like any other stale one.
 */
async function awaitReapedPostmaster(pgData: string, log: (message: string) => void): Promise<void> {
  const pid = await lockFilePid(pgData);
  if (pid === null || !isUnreaped(pid)) return;
  log(`waiting for the stopped PostgreSQL (pid ${pid}) to be reaped`);
  const deadline = Date.now() + REAP_WAIT_MS;
  while (isUnreaped(pid) && Date.now() < deadline) await sleep(50);
  if (isUnreaped(pid)) await fs.rm(lockFile(pgData), { force: true });
}

/** Shuts down a postmaster orphaned by a crashed owner and waits out one that is not yet reaped. */
export async function clearLeftoverPostmaster(pgData: string, log: (message: string) => void): Promise<void> {
  const orphan = await runningPostmaster(pgData);
  if (orphan) {
    log(`stopping PostgreSQL (pid ${orphan}) left running by a previous process`);
    process.kill(orphan, 'SIGINT');
    if (!(await waitForExit(orphan, 30_000))) throw new Error(`PostgreSQL pid ${orphan} did not stop`);
  }
  await awaitReapedPostmaster(pgData, log);
}

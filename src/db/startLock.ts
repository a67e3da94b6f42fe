import fs from 'node:fs/promises';
import path from 'node:path';
import { currentProcess, sleep, stillRunning } from './processes.ts';

/** Longer than a first initdb plus a wait for a command that holds the cluster. */
const WAIT_MS = 120_000;
/** A lock file is created, then written: an unreadable one this young is being written. */
const WRITE_GRACE_MS = 10_000;

/**
 * Only one process at a time may initialise, start or stop-the-orphan-of a cluster: two
 * `eventlog` commands started together, or a command and `serve`, would otherwise both run
 * initdb or both start PostgreSQL on one data directory. The lock is a file created with O_EXCL
 * that names its holder; a holder that died is detected by its pid and start time.
 * Returns the release function.
 */
export async function acquireStartLock(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'start.lock');
  const mine = JSON.stringify(currentProcess());
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await fs.writeFile(lockPath, mine, { flag: 'wx', mode: 0o600 });
      return async () => {
        const current = await fs.readFile(lockPath, 'utf8').catch(() => null);
        if (current === mine) await fs.rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await fs.readFile(lockPath, 'utf8').catch(() => null);
    if (holder !== null && (await isStale(lockPath, holder))) {
      await removeIfUnchanged(lockPath, holder);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Gave up waiting for another eventlog process to start the database in ${dataDir} (${lockPath})`);
    }
    await sleep(100);
  }
}

async function isStale(lockPath: string, content: string): Promise<boolean> {
  try {
    const holder = JSON.parse(content) as { pid: number; start: string | null };
    return !stillRunning(holder);
  } catch {
    const stat = await fs.stat(lockPath).catch(() => null);
    return stat !== null && Date.now() - stat.mtimeMs > WRITE_GRACE_MS;
  }
}

/**
 * Removes a dead holder's lock without removing a live one that replaced it in the meantime:
 * the file is first moved aside (atomic), and put back if it turns out to be someone else's.
 */
async function removeIfUnchanged(lockPath: string, staleContent: string): Promise<void> {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return;
  }
  if ((await fs.readFile(aside, 'utf8').catch(() => null)) !== staleContent) {
    await fs.link(aside, lockPath).catch(() => {});
  }
  await fs.rm(aside, { force: true });
}

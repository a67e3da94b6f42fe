import { readFileSync } from 'node:fs';

/**
 * What the embedded cluster needs to know about other processes. A pid alone is not an
 * identity: after a crash or a container restart the same number is soon handed to another
 * process, so on Linux the kernel's start time and command line are checked as well.
 */

/**
 * The process exists and has not exited. A killed process that its parent has not reaped yet
 * (a zombie, state Z in /proc) still answers signal 0, but it holds nothing any more: its lock
 * or cluster ownership is stale (decision 008).
 */
export function isAlive(pid: number | null | undefined): pid is number {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processState(pid) !== 'Z';
}

/** Killed but not yet reaped: it still answers signal 0, which is all PostgreSQL's lock check asks. */
export function isUnreaped(pid: number): boolean {
  return processState(pid) === 'Z';
}

/** Field 3 of /proc/<pid>/stat (R, S, D, Z, ...); null where /proc cannot tell. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. Null
 * where /proc is missing (not Linux) or the process is gone.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** A process recorded earlier as pid + start time. */
interface ProcessIdentity {
  pid: number;
  start: string | null;
}

export const currentProcess = (): ProcessIdentity => ({ pid: process.pid, start: processStart(process.pid) });

/** The recorded process still runs: same pid and, where the kernel tells, same start time. */
export function stillRunning(identity: { pid: number | null; start?: string | null }): boolean {
  if (!isAlive(identity.pid)) return false;
  const start = processStart(identity.pid);
  return !(start && identity.start && start !== identity.start);
}

/** The argument vector `pid` was started with; null where /proc cannot tell. */
export function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  return !isAlive(pid);
}

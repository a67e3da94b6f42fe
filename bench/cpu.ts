import { readFileSync, readdirSync } from 'node:fs';
import { type LoadResult, median } from './measure.ts';

/** Linux's USER_HZ: /proc reports CPU time in these ticks on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  ppid: number;
  command: string;
  /** User + system ticks, all threads. */
  ticks: number;
  /** Ticks of its children that have exited (and been waited for). */
  childTicks: number;
}

function processes(): Map<number, ProcessTimes> {
  const found = new Map<number, ProcessTimes>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces), from field 3 on.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      found.set(Number(name), {
        ppid: Number(fields[1]),
        command,
        ticks: Number(fields[11]) + Number(fields[12]),
        childTicks: Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, v) => sum + v, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

function subtree(all: Map<number, ProcessTimes>, root: number): Set<number> {
  const members = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, info] of all) {
      if (!members.has(pid) && members.has(info.ppid)) {
        members.add(pid);
        grew = true;
      }
    }
  }
  return members;
}

export interface CpuShares {
  /** Cores used on average over the run, per group. */
  [group: string]: number;
}

/**
 * CPU used during a run, in cores, by: the server's own process, the database (the server's
 * child processes for the embedded PostgreSQL; every process named postgres for an external one,
 * which may include other clusters), the ceiling server, this harness with its load generator,
 * and everything else on the machine (other work competing for the same cores). Linux only.
 */
export function measureCpu(pids: { server: number; ceiling?: number; externalDatabase?: boolean }): { stop(): CpuShares | null } {
  let before: Map<number, ProcessTimes>;
  let machineBefore: { busy: number; total: number };
  try {
    before = processes();
    machineBefore = machineTicks();
  } catch {
    return { stop: () => null };
  }
  const started = performance.now();
  return {
    stop() {
      const after = processes();
      const machine = machineTicks();
      const seconds = (performance.now() - started) / 1000;
      const used = (pid: number) => Math.max(0, (after.get(pid)?.ticks ?? 0) - (before.get(pid)?.ticks ?? 0));
      const sum = (set: Iterable<number>) => [...set].reduce((total, pid) => total + used(pid), 0);
      const serverTree = subtree(after, pids.server);
      const ceilingTree = pids.ceiling ? subtree(after, pids.ceiling) : new Set<number>();
      const harnessTree = subtree(after, process.pid);
      for (const pid of [...serverTree, ...ceilingTree]) harnessTree.delete(pid);
      const external = new Set<number>();
      if (pids.externalDatabase) {
        for (const [pid, info] of after) if (info.command === 'postgres' && !serverTree.has(pid)) external.add(pid);
      }
      const databaseProcesses = [...serverTree, ...external].filter((pid) => pid !== pids.server);
      const background = databaseProcesses.filter(isBackgroundProcess);
      const groups = {
        server: used(pids.server),
        database: sum(databaseProcesses) - sum(background),
        'database background': sum(background),
        ceiling: sum(ceilingTree),
        // Load generators exit before the meter stops: their time is in this process's child time.
        'load generator': sum(harnessTree) + Math.max(0, (after.get(process.pid)?.childTicks ?? 0) - (before.get(process.pid)?.childTicks ?? 0)),
      };
      const ours = Object.values(groups).reduce((a, b) => a + b, 0);
      const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
      const shares: CpuShares = {};
      for (const [name, ticks] of Object.entries(groups)) if (ticks > 0) shares[name] = cores(ticks);
      shares.other = Math.max(0, cores(machine.busy - machineBefore.busy - ours));
      return shares;
    },
  };
}

/**
 * A PostgreSQL process that serves no connection: autovacuum, the checkpointer, the writers, the
 * postmaster. Their work follows earlier writes as much as the measured ones (autovacuum wakes up
 * after enough rows changed), so it is shown apart from the backends'.
 */
function isBackgroundProcess(pid: number): boolean {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    // A backend's title is "postgres: <user> <database> <address> <activity>".
    return !/^postgres: \S+ \S+ (\d|\[local\])/.test(title);
  } catch {
    return false;
  }
}

/**
 * The groups a measurement's own CPU is made of: every group but the load generator and the rest
 * of the machine (the report's total, and the CPU per event the issue targets compare).
 */
export function ownGroups(shares: CpuShares): Array<[string, number]> {
  return Object.entries(shares).filter(([group]) => group !== 'other' && group !== 'load generator');
}

/** Median per group over several runs. */
export function medianShares(runs: Array<CpuShares | null>): CpuShares | null {
  const present = runs.filter((run): run is CpuShares => run !== null);
  if (present.length === 0) return null;
  const names = [...new Set(present.flatMap((run) => Object.keys(run)))];
  const result: CpuShares = {};
  for (const name of names) {
    const values = present.map((run) => run[name] ?? 0).sort((a, b) => a - b);
    const middle = Math.floor(values.length / 2);
    result[name] = values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  }
  return result;
}

/**
 * CPU time per event of each run, in µs, median over the runs: every group the report totals
 * (the server, the database, the ceiling), not the load generator or the rest of the machine.
 */
export function cpuPerEvent(loads: LoadResult[], shares: Array<CpuShares | null>): number | undefined {
  const values = loads.flatMap((load, i) => {
    const run = shares[i];
    if (!run || !(load.rps > 0)) return [];
    const cores = ownGroups(run).reduce((sum, [, value]) => sum + value, 0);
    return [(cores * 1e6) / load.rps];
  });
  return values.length ? median(values) : undefined;
}

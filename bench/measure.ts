import { spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface LoadSpec {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  connections: number;
  /** Requests per second across all connections; unlimited when absent. */
  rate?: number;
  /** Seconds. */
  duration: number;
  /** Seconds of unmeasured load first (JIT, caches, pool). */
  warmup?: number;
  /** Measured runs, one after the other (default 1). */
  repeat?: number;
  /** Request bodies to cycle through, when the requests carry one. */
  bodies?: { kind: 'api' | 'ceiling'; project: string } | { kind: 'batch'; project: string; size: number } | { kind: 'hook' } | { kind: 'fixed'; body: string };
}

export interface LoadResult {
  /** 2xx responses per second. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Milliseconds. */
  p50: number;
  p99: number;
  seconds: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const middle = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[middle]! : (finite[middle - 1]! + finite[middle]!) / 2;
}

/** Runs the load generator in its own process and returns what each run measured. */
export function runLoad(spec: LoadSpec): Promise<LoadResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/load.ts'), JSON.stringify(spec)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}: ${stderr.trim()}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as LoadResult[]);
      } catch {
        reject(new Error(`load generator printed no result: ${stdout}${stderr}`));
      }
    });
  });
}

/** Median of each figure over several runs of one load. */
export function summarize(runs: LoadResult[]): LoadResult & { runs: number } {
  const statusCodes: Record<string, number> = {};
  for (const run of runs) for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    rps: median(runs.map((r) => r.rps)),
    ok: runs.reduce((sum, r) => sum + r.ok, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    seconds: runs.reduce((sum, r) => sum + r.seconds, 0),
    runs: runs.length,
  };
}

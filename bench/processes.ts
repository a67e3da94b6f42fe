import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { serverNodeFlags } from '../scripts/serverBuild.js';
import { ROOT } from './measure.ts';

export interface Running {
  pid: number;
  origin: string;
  port: number;
  /** Why the process ended, if it has (it should not before stop()). */
  ended(): string | null;
  stop(): Promise<void>;
}

function endWatch(child: ChildProcess): () => string | null {
  let ended: string | null = null;
  child.once('exit', (code, signal) => (ended = signal ? `killed by ${signal}` : `exited with code ${code}`));
  return () => ended;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(origin: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before answering; see ${logFile}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no answer from ${origin}/healthz within ${timeoutMs / 1000} s; see ${logFile}`);
}

function stopper(child: ChildProcess, name: string): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => {
        process.stderr.write(`${name} did not stop within 60 s; killing it\n`);
        child.kill('SIGKILL');
      }, 60_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

function spawnLogged(args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return child;
}

export interface ServerOptions {
  dataDir: string;
  databaseUrl?: string;
  timeZone: string;
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
}

/** The real server, as `npm start` runs it, in its own process. Stopped with SIGTERM. */
export async function startServer(options: ServerOptions): Promise<Running> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: options.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: origin,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    TZ: options.timeZone,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  // As `npm start` runs it; flags given to the bench come after, so they win.
  const flags = [...serverNodeFlags(), ...(options.nodeFlags ?? [])];
  const child = spawnLogged([...flags, path.join(ROOT, 'bin/eventlog.js'), 'serve'], env, options.logFile);
  const ended = endWatch(child);
  const stop = stopper(child, 'the server');
  try {
    // Long on purpose: the first start initialises the cluster, and a new migration may build an index.
    await waitForHealth(origin, child, options.logFile, 600_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: child.pid!, origin, port, ended, stop };
}

/** The ceiling: a bare node:http server doing one INSERT per request (bench/ceiling.ts). */
export async function startCeiling(databaseUrl: string, organizationId: string, poolSize: number, logFile: string): Promise<Running> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    CEILING_DATABASE_URL: databaseUrl,
    CEILING_ORGANIZATION: organizationId,
    CEILING_PORT: String(port),
    CEILING_POOL: String(poolSize),
  };
  const child = spawnLogged(['--import', 'tsx', path.join(ROOT, 'bench/ceiling.ts')], env, logFile);
  const ended = endWatch(child);
  const stop = stopper(child, 'the ceiling server');
  try {
    await waitForHealth(origin, child, logFile, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: child.pid!, origin, port, ended, stop };
}

/** Resident memory of one process (not its children: the database is excluded), in bytes. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 100 ms while running; `stop()` returns the largest seen. */
export function sampleResident(pid: number): { stop(): number | null } {
  let max: number | null = null;
  const take = () => {
    const value = residentBytes(pid);
    if (value !== null) max = Math.max(max ?? 0, value);
  };
  take();
  const timer = setInterval(take, 100);
  return {
    stop() {
      clearInterval(timer);
      take();
      return max;
    },
  };
}

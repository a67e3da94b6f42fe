import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../../src/db/processes.ts';
import { waitUntil } from '../wait.ts';
import { freePort } from '../ports.ts';

/**
 * Runs `bin/eventlog.js` as a real child process, the way an operator does: the server with its
 * signals and the commands with their stdout, stderr and exit codes.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/eventlog.js');

/**
 * A DATA_DIR of its own. As root, PostgreSQL runs as the `postgres` system user, which must be
 * able to pass through it (embedded.ts makes DATA_DIR itself 0711; os.tmpdir() is /tmp).
 */
export function tempDataDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `eventlog-${label}-`));
  fs.chmodSync(dir, 0o711);
  dataDirs.add(dir);
  return dir;
}

const dataDirs = new Set<string>();

/**
 * The environment of a child on the embedded store in `dataDir`. The test runner hands every
 * test DATABASE_URL; a child that inherited it would never touch DATA_DIR.
 */
export function embeddedEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra };
  delete env.DATABASE_URL;
  return env;
}

/** The environment of a child on the PostgreSQL at `databaseUrl`, with a DATA_DIR it must not use. */
export function externalEnv(databaseUrl: string, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Longer than any command takes on a loaded machine; a hung one fails its test with what it printed. */
const CLI_TIMEOUT_MS = 90_000;

/** One `eventlog <args>` run to completion; `input` is its whole stdin (closed when absent). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, input = '', timeoutMs = CLI_TIMEOUT_MS): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`eventlog ${args.join(' ')} did not finish in ${timeoutMs / 1000} s; stdout: ${stdout}; stderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** The one JSON object a successful command prints, checked to be exactly one line. */
export function jsonLine(result: CliResult): Record<string, unknown> {
  if (result.code !== 0) throw new Error(`command failed (${result.code}): ${result.stderr}`);
  const lines = result.stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected exactly one line on stdout, got ${JSON.stringify(result.stdout)}`);
  const value: unknown = JSON.parse(lines[0]!);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected a JSON object, got ${lines[0]}`);
  return value as Record<string, unknown>;
}

export { freePort };

/** A zombie (exited, not yet reaped by its parent) is not alive: the server's own rule. */
export { isAlive };

/** The pid in DATA_DIR/pg/postmaster.pid, whether or not it still runs. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export interface ClusterFile {
  port: number;
  password: string;
  ownerPid: number | null;
}

export function readClusterFile(dataDir: string): ClusterFile {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'cluster.json'), 'utf8')) as ClusterFile;
}

/** Every server any test started, so a failing test cannot leave one running. */
const started = new Set<ServerProcess>();

/** `eventlog serve` in a child process, on a free port. */
export class ServerProcess {
  output = '';

  /** The output's last `chars` characters without the per-request log lines: what the server itself said. */
  said(chars = 4000): string {
    return this.output
      .split('\n')
      .filter((line) => !/"msg":"(incoming request|request completed)"/.test(line))
      .join('\n')
      .slice(-chars);
  }

  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => started.delete(this));
  }

  /** `asTerminalJob`: the server leads a process group of its own, as a shell's foreground job does. */
  static async start(env: NodeJS.ProcessEnv, { asTerminalJob = false } = {}): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: asTerminalJob,
    });
    const server = new ServerProcess(child, port);
    started.add(server);
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resolves once GET /healthz answers 200; fails early if the process exits instead. */
  async healthy(timeoutMs = 30_000): Promise<void> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    // An exit ends the wait at once (a thrown error would only be retried until the timeout).
    const outcome = await waitUntil(
      async () => {
        if (exited) return 'exited';
        const reply = await fetch(`${this.url}/healthz`).catch(() => null);
        return reply?.status === 200 && 'healthy';
      },
      { timeoutMs, intervalMs: 50, message: `GET /healthz of the server on port ${this.port}` },
    );
    if (outcome === 'exited') throw new Error(`the server exited before it was healthy:\n${this.output}`);
  }

  /** What a terminal's Ctrl-C does: SIGINT to every process of the job's group. */
  interruptJob(): void {
    process.kill(-this.pid, 'SIGINT');
  }

  /** Sends the signal and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    this.child.kill(signal);
    return this.exited;
  }
}

/** For `afterEach`: a failed test must not leave its server holding the data directory. */
export async function stopServers(): Promise<void> {
  await Promise.all(
    [...started].map(async (server) => {
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
      await server.stop('SIGTERM');
      clearTimeout(timer);
    }),
  );
}

/**
 * For `after`: nothing a test started may outlive the file. Servers get a graceful stop first;
 * a PostgreSQL still running in one of the test's data directories is stopped by its pid.
 */
export async function cleanUp(): Promise<void> {
  await stopServers();
  for (const dir of dataDirs) {
    const pid = postmasterPid(dir);
    if (pid && isAlive(pid) && isPostmasterOf(pid, dir)) {
      process.kill(pid, 'SIGINT');
      await waitUntil(() => !isAlive(pid), { timeoutMs: 30_000, message: `PostgreSQL pid ${pid} to stop` }).catch(() => process.kill(pid, 'SIGKILL'));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  dataDirs.clear();
}

/** The process was started on this data directory (Linux /proc); a reused pid is not. */
export function isPostmasterOf(pid: number, dataDir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(path.join(dataDir, 'pg'));
  } catch {
    return false;
  }
}

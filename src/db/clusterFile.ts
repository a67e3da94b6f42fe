import fs from 'node:fs/promises';
import path from 'node:path';
import { stillRunning } from './processes.ts';

export const USER = 'eventlog';
export const DATABASE = 'eventlog';

/**
 * The embedded PostgreSQL cluster kept in DATA_DIR. Its port and password are recorded in
 * `DATA_DIR/cluster.json` (mode 0600) so that `eventlog` commands reach the cluster that a
 * running server started. See docs/decisions/001-embedded-postgres.md.
 */
export interface ClusterFile {
  port: number;
  password: string;
  /** pid of the process that started the cluster and will stop it; null when stopped. */
  ownerPid: number | null;
  /**
   * The owner's start time as the kernel counts it (Linux), so that a pid reused after a
   * crash or a container restart is not mistaken for the owner. Null where unknown.
   */
  ownerStart?: string | null;
  /** A server keeps the cluster; a command run beside no server starts it for a moment. */
  ownerRole?: OwnerRole;
}

export type OwnerRole = 'server' | 'command';

const clusterFilePath = (dataDir: string) => path.join(dataDir, 'cluster.json');
export const pgDataDir = (dataDir: string) => path.join(dataDir, 'pg');

export async function readClusterFile(dataDir: string): Promise<ClusterFile | null> {
  try {
    return JSON.parse(await fs.readFile(clusterFilePath(dataDir), 'utf8')) as ClusterFile;
  } catch {
    return null;
  }
}

export async function writeClusterFile(dataDir: string, value: ClusterFile): Promise<void> {
  const target = clusterFilePath(dataDir);
  const temp = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify(value), { mode: 0o600 });
  await fs.rename(temp, target);
}

export function urlFor(file: ClusterFile, database = DATABASE): string {
  return `postgres://${USER}:${encodeURIComponent(file.password)}@127.0.0.1:${file.port}/${database}`;
}

/** The owner recorded in cluster.json is still that same process. */
export function ownerRunning(file: ClusterFile | null): file is ClusterFile & { ownerPid: number } {
  return file !== null && stillRunning({ pid: file.ownerPid, start: file.ownerStart });
}

import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { type Progress, writeBackup } from '../db/backup.ts';
import { openDatabase } from '../db/open.ts';
import { restoreBackup } from '../db/restore.ts';

/** A wrong argument: the caller prints the usage and exits 2. */
export class BackupUsageError extends Error {}

/** On a terminal, one line rewritten in place; elsewhere (a cron job's mail) nothing. */
function progressLine(verb: string): { update: (progress: Progress) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  let last = 0;
  return {
    update({ table, tableIndex, tableCount, rows }) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      process.stderr.write(`\r\x1b[K${verb} ${tableIndex + 1}/${tableCount} ${table}: ${rows.toLocaleString('en-US')} rows`);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

function fileArgument(args: string[]): string {
  const files = args.filter((arg) => arg !== undefined);
  if (files.length !== 1 || files[0]!.startsWith('-')) throw new BackupUsageError('expected exactly one argument: the backup file');
  return path.resolve(files[0]!);
}

/** `eventlog backup <file>`: beside a running server (its embedded cluster too) or alone. */
export async function backupCommand(args: string[], config: Config): Promise<{ file: string; bytes: number }> {
  const file = fileArgument(args);
  await fs.promises.access(path.dirname(file), fs.constants.W_OK);
  const db = await openDatabase(config, { attach: true, poolSize: 1 });
  const progress = progressLine('backing up');
  try {
    const { bytes } = await writeBackup(db.sql, file, progress.update);
    return { file, bytes };
  } finally {
    progress.done();
    await db.close();
  }
}

/** `eventlog restore <file>`: only into a missing or empty DATA_DIR, or a database without tables. */
export async function restoreCommand(args: string[], config: Config): Promise<{ restored: true }> {
  const file = fileArgument(args);
  await fs.promises.access(file, fs.constants.R_OK);
  if (!config.databaseUrl) await checkDataDirUsable(config.dataDir);
  const db = await openDatabase(config, { attach: true, poolSize: 1, migrate: false });
  const progress = progressLine('restoring');
  try {
    await restoreBackup(db.sql, file, { onProgress: progress.update });
    return { restored: true };
  } finally {
    progress.done();
    await db.close();
  }
}

/**
 * Missing or empty, or an embedded store's own directory (whose database restoreBackup then
 * checks is empty). Anything else is somebody's files, which starting a cluster there would mix
 * into.
 */
async function checkDataDirUsable(dataDir: string): Promise<void> {
  const entries = await fs.promises.readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length === 0) return;
  const isStore = await fs.promises.stat(path.join(dataDir, 'pg', 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!isStore) throw new Error(`DATA_DIR ${dataDir} is not empty: restore into a missing or empty directory`);
}

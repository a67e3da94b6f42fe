import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BACKUP_FORMAT, type BackupHeader, END_OF_TABLE, type Progress } from './backup.ts';
import { countRelations, quote, type SequenceValue, tablesInDependencyOrder } from './catalog.ts';
import { CITUS_RESTORE_REFUSAL, isCitus } from './citus.ts';
import type { Sql } from './client.ts';
import { endCopyIn, writeToCopy } from './driverQuirks.ts';
import { migrateInTransaction, migrationNames } from './migrate.ts';

/** The store already holds something: a restore never merges into or overwrites it. */
class StoreNotEmpty extends Error {}

/** Lines of a (gzipped) backup, read as the restore asks for them. */
async function* lines(file: string): AsyncGenerator<string, void> {
  const input = fs.createReadStream(file).pipe(createGunzip());
  let rest = Buffer.alloc(0);
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a, start)) {
      yield data.subarray(start, end).toString('utf8');
      start = end + 1;
    }
    data = data.subarray(start);
    rest = Buffer.from(data);
  }
  if (rest.length > 0) yield rest.toString('utf8');
}

/** Buffers rows into writes of about 256 KiB, waiting whenever the COPY stream is full. */
class RowWriter {
  private pending: string[] = [];
  private size = 0;
  constructor(private readonly target: Writable) {}
  async row(line: string): Promise<void> {
    this.pending.push(line, '\n');
    this.size += line.length + 1;
    if (this.size >= 256 * 1024) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.size = 0;
    await writeToCopy(this.target, chunk);
  }
}

/**
 * Restores a backup into an empty store in ONE transaction: the backup's schema (its migrations,
 * up to the one it was taken at), every table's rows, the sequences. Anything wrong (a store that
 * is not empty, a file cut short) rolls all of it back. A later start migrates the rest.
 */
export async function restoreBackup(
  sql: Sql,
  file: string,
  { onProgress = () => {}, log = () => {} }: { onProgress?: (progress: Progress) => void; log?: (message: string) => void } = {},
): Promise<{ tables: number; rows: number }> {
  await fs.promises.access(file, fs.constants.R_OK);
  if (await isCitus(sql)) throw new Error(CITUS_RESTORE_REFUSAL);
  const reader = lines(file);
  const next = async (): Promise<string> => {
    const { value, done } = await reader.next();
    if (done) throw new Error('the backup file is cut short (no end marker)');
    return value;
  };

  let header: BackupHeader;
  try {
    header = JSON.parse(await next()) as BackupHeader;
  } catch {
    throw new Error(`${file} is not an eventlog backup`);
  }
  if (header?.eventlog !== 'backup') throw new Error(`${file} is not an eventlog backup`);
  if (header.format !== BACKUP_FORMAT) throw new Error(`backup format ${header.format} is not supported by this version`);
  if (!(await migrationNames()).includes(header.migration)) {
    throw new Error(`the backup was taken at migration ${header.migration}, which this version does not have: restore it with that version or a newer one`);
  }

  try {
    return await sql.begin(async (tx) => {
      if ((await countRelations(tx)) > 0) throw new StoreNotEmpty('the store is not empty: restore into an empty DATA_DIR or an empty database');
      await migrateInTransaction(tx, log, { through: header.migration });
      const tables = new Map((await tablesInDependencyOrder(tx)).map((table) => [table.name, table]));
      // Rows a migration may have seeded make way for the backup's.
      if (tables.size > 0) await tx.unsafe(`TRUNCATE ${[...tables.keys()].map(quote).join(', ')}`);
      let restoredTables = 0;
      let rows = 0;
      for (;;) {
        const section = JSON.parse(await next()) as { table?: string; columns?: string[]; sequences?: SequenceValue[]; end?: boolean };
        if (section.end) break;
        if (section.sequences) {
          for (const sequence of section.sequences) {
            await tx`SELECT setval(${quote(sequence.name)}::regclass, ${sequence.value}::bigint, ${sequence.called})`;
          }
          continue;
        }
        const table = section.table !== undefined ? tables.get(section.table) : undefined;
        if (!table || !section.columns) throw new Error(`the backup holds a table this schema does not have: ${section.table}`);
        const progress: Progress = { table: table.name, tableIndex: restoredTables, tableCount: tables.size, rows: 0 };
        onProgress(progress);
        const copy = await tx.unsafe(`COPY ${quote(table.name)} (${section.columns.map(quote).join(', ')}) FROM STDIN`).writable();
        // Without a listener, a COPY ended by an error would take the process down with it.
        copy.on('error', () => {});
        try {
          const writer = new RowWriter(copy);
          for (let line = await next(); line !== END_OF_TABLE; line = await next()) {
            await writer.row(line);
            if (++progress.rows % 10_000 === 0) onProgress(progress);
          }
          await writer.flush();
          await (
            await endCopyIn(tx, copy)
          ).done;
        } catch (error) {
          // Tells the server the COPY failed (CopyFail), so the connection can roll back.
          if (!copy.destroyed) copy.destroy(error instanceof Error ? error : new Error(String(error)));
          throw error;
        }
        onProgress(progress);
        rows += progress.rows;
        restoredTables++;
      }
      return { tables: restoredTables, rows };
    });
  } finally {
    await reader.return(undefined);
  }
}

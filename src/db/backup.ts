import { once } from 'node:events';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { CITUS_BACKUP_REFUSAL, isCitus } from './citus.ts';
import type { Sql } from './client.ts';
import { quote, sequenceValues, tablesInDependencyOrder } from './catalog.ts';

/**
 * The backup file, gzipped text:
 *   {"eventlog":"backup","format":1,"migration":"<last applied>","createdAt":"..."}
 *   {"table":"<name>","columns":[...]}      then the table's rows as COPY text, then a line `\.`
 *   ...                                     (every table, parents first)
 *   {"sequences":[{"name","value","called"}]}
 *   {"end":true,"tables":n,"rows":n}        (a file without it was cut short)
 * COPY's text format escapes backslashes and line breaks inside values, so a row is one line and
 * `\.` alone on a line can only be the end marker.
 */
export const BACKUP_FORMAT = 1;
export const END_OF_TABLE = '\\.';

export interface BackupHeader {
  eventlog: 'backup';
  format: number;
  migration: string;
  createdAt: string;
}

export interface Progress {
  table: string;
  tableIndex: number;
  tableCount: number;
  rows: number;
}

/**
 * Writes every table of the installation as one REPEATABLE READ, READ ONLY transaction sees it:
 * one snapshot, so the file is consistent while the server keeps writing (readers never block
 * writers in PostgreSQL). Written to a temporary name and renamed at the end, so `file` is only
 * ever a complete backup.
 */
export async function writeBackup(sql: Sql, file: string, onProgress: (progress: Progress) => void = () => {}): Promise<{ bytes: number }> {
  // Before the file is opened: a refusal leaves nothing behind.
  if (await isCitus(sql)) throw new Error(CITUS_BACKUP_REFUSAL);
  const partial = `${file}.partial-${process.pid}`;
  const gzip = createGzip();
  const written = pipeline(gzip, fs.createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => {});
  const write = async (chunk: string | Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  try {
    await sql.begin('isolation level repeatable read read only', async (tx) => {
      // The transaction's first statement fixes its snapshot: the backup "begins" here.
      const [last] = await tx<{ name: string | null }[]>`SELECT max(name) AS name FROM schema_migrations WHERE name ~ '^[0-9]'`;
      if (!last?.name) throw new Error('the database has no eventlog schema to back up');
      const header: BackupHeader = { eventlog: 'backup', format: BACKUP_FORMAT, migration: last.name, createdAt: new Date().toISOString() };
      await write(`${JSON.stringify(header)}\n`);
      const tables = await tablesInDependencyOrder(tx);
      let total = 0;
      for (const [tableIndex, table] of tables.entries()) {
        await write(`${JSON.stringify({ table: table.name, columns: table.columns })}\n`);
        const progress: Progress = { table: table.name, tableIndex, tableCount: tables.length, rows: 0 };
        onProgress(progress);
        const copy = `COPY ${quote(table.name)} (${table.columns.map(quote).join(', ')}) TO STDOUT`;
        const rows = await tx.unsafe(copy).readable();
        for await (const chunk of rows as AsyncIterable<Buffer>) {
          await write(chunk);
          for (const byte of chunk) if (byte === 0x0a) progress.rows++;
          onProgress(progress);
        }
        resumeConnection(rows);
        total += progress.rows;
        await write(`${END_OF_TABLE}\n`);
      }
      await write(`${JSON.stringify({ sequences: await sequenceValues(tx) })}\n`);
      await write(`${JSON.stringify({ end: true, tables: tables.length, rows: total })}\n`);
    });
    gzip.end();
    await written;
    await fs.promises.rename(partial, file);
    return { bytes: (await fs.promises.stat(file)).size };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

/**
 * postgres 3.4.9 pauses the connection's socket whenever a COPY ... TO STDOUT stream's buffer is
 * full, and resumes it only from the stream's read(). When the pause falls on the last rows, the
 * stream ends (CopyDone) while the socket stays paused, and the connection's next query never
 * hears its answer. The stream's read() is exactly "resume the socket", and harmless when it runs
 * (decision 075).
 */
function resumeConnection(stream: Readable): void {
  stream._read(0);
}

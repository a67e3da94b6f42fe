/**
 * Does the server's pool keep `sql.begin` transactions apart from the autocommit queries that
 * run beside them? Fires a saturating mix of transactions that roll back and plain INSERTs that
 * are acknowledged, then counts the acknowledged rows that were not committed. Any lost row is a
 * durability failure. See docs/decisions/030-driver-pipelining.md.
 *
 *   node --import tsx bench/probes/transactionSafety.ts [seconds]
 *
 * Uses DATABASE_URL when set, else a throwaway embedded cluster.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '../../src/db/client.ts';
import { startEmbeddedCluster } from '../../src/db/embedded.ts';

const seconds = Number(process.argv[2] ?? 3);
let url = process.env.DATABASE_URL;
let stopCluster: (() => Promise<void>) | undefined;
let dataDir: string | undefined;
if (!url) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-probe-'));
  const cluster = await startEmbeddedCluster(dataDir);
  url = cluster.url;
  stopCluster = cluster.stop;
}

const table = `probe_writes_${process.pid}`;
const sql = createClient(url, { max: 4 });
const counts = { acknowledged: 0, transactions: 0, unsafeTransaction: 0, otherErrors: 0 };
try {
  await sql`CREATE TABLE ${sql(table)} (id serial PRIMARY KEY, n int)`;
  const insert = (n: number) =>
    sql`INSERT INTO ${sql(table)} (n) VALUES (${n})`.then(
      () => counts.acknowledged++,
      () => counts.otherErrors++,
    );
  const pending: Promise<unknown>[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    for (let i = 0; i < 20; i++) {
      if (Math.random() < 0.3) {
        pending.push(
          sql
            .begin(async (tx) => {
              await tx`SELECT pg_sleep(0.0002)`;
              throw new Error('roll back');
            })
            .catch((error: { code?: string; message?: string }) => {
              if (error.code === 'UNSAFE_TRANSACTION') counts.unsafeTransaction++;
              else if (error.message === 'roll back') counts.transactions++;
              else counts.otherErrors++;
            }),
        );
      }
      pending.push(insert(i));
    }
    if (Math.random() < 0.5) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
  const [row] = await sql<{ committed: number }[]>`SELECT count(*)::int AS committed FROM ${sql(table)}`;
  const lost = counts.acknowledged - row!.committed;
  console.log(JSON.stringify({ ...counts, committed: row!.committed, lost }));
  process.exitCode = lost === 0 && counts.unsafeTransaction === 0 ? 0 : 1;
} finally {
  await sql`DROP TABLE IF EXISTS ${sql(table)}`.catch(() => {});
  await sql.end({ timeout: 5 });
  await stopCluster?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

import type postgres from 'postgres';
import type { Db, TransactionSql } from './client.ts';

/** What a pipelined transaction gives its work besides the transaction itself. */
export interface TransactionSteps {
  /**
   * Settles with the BEGIN. The work's first statement must be a read awaited together with it:
   * that read went out right behind the BEGIN, so if the BEGIN failed it ran outside any
   * transaction, which is harmless only for a read.
   */
  begun: Promise<void>;
  /** Runs the last statements and commits, all in one round trip; rejects if any of them failed (nothing is then committed). */
  commitWith(statements: Array<postgres.PendingQuery<postgres.Row[]>>): Promise<void>;
}

const started = (): TransactionSteps['begun'] => Promise.resolve();

/**
 * A transaction whose BEGIN goes out in the same write as the first statement and whose COMMIT
 * with the last ones, where `sql.begin` sends and awaits each on its own: three steps take three
 * round trips instead of five. On the ingest path, at a handful of events per batch, each round
 * trip's socket write costs the server about as much as validating an event (decision 160).
 *
 * Inside a caller's transaction (a test's, an import's) it is a savepoint, and `commitWith` only
 * runs the statements. If `work` throws before `commitWith`, the transaction is rolled back.
 */
export async function pipelinedTransaction<T>(sql: Db, work: (tx: TransactionSql, steps: TransactionSteps) => Promise<T>): Promise<T> {
  if ('savepoint' in sql) {
    return (await sql.savepoint((tx) =>
      work(tx, {
        begun: started(),
        commitWith: async (statements) => {
          await Promise.all(statements);
        },
      }),
    )) as T;
  }
  const reserved = await sql.reserve();
  let open = true;
  try {
    const begun = reserved`BEGIN`.then(() => undefined);
    // Heard through `begun` by the work; never an unhandled rejection of its own.
    begun.catch(() => {});
    return await work(reserved as unknown as TransactionSql, {
      begun,
      async commitWith(statements) {
        const settled = await Promise.allSettled([...statements, reserved`COMMIT`]);
        // Whatever happened, the COMMIT (or a lost connection) has ended the transaction: after a
        // failed statement PostgreSQL answers the COMMIT with ROLLBACK, without an error.
        open = false;
        const failed = settled.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
        const commit = settled[settled.length - 1] as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>;
        if (commit.value.command !== 'COMMIT') throw new Error(`the transaction ended in ${commit.value.command}, not COMMIT`);
      },
    });
  } finally {
    // A connection goes back to the pool only outside a transaction: a later autocommit write
    // on it would otherwise be lost with this one's rollback (decision 030).
    if (open) await reserved`ROLLBACK`.catch(() => {});
    reserved.release();
  }
}

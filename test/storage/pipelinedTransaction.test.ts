// The ingest path's transaction (src/db/pipelinedTransaction.ts): BEGIN sent with the first
// statement, COMMIT with the last; all or nothing, and a connection back in the pool is never
// left inside a transaction.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Sql, createClient } from '../../src/db/client.ts';
import { pipelinedTransaction } from '../../src/db/pipelinedTransaction.ts';

describe('a pipelined transaction', () => {
  let sql: Sql;
  const sent: string[] = [];

  before(async () => {
    // One connection: the temporary table is visible to every statement, and whatever a
    // transaction leaves on the connection, the next statement meets.
    sql = createClient(process.env.DATABASE_URL!, { max: 1, onQuery: (query) => sent.push(query.trim()) });
    await sql`CREATE TEMP TABLE probe (n int PRIMARY KEY)`;
  });

  after(async () => {
    await sql.end({ timeout: 5 });
  });

  const rows = async () => (await sql<{ n: number }[]>`SELECT n FROM probe ORDER BY n`).map((row) => row.n);
  const reset = async () => {
    await sql`DELETE FROM probe`;
    sent.length = 0;
  };

  it('commits every statement, with BEGIN sent with the first read and COMMIT with the last writes', async () => {
    await reset();
    const result = await pipelinedTransaction(sql, async (tx, { begun, commitWith }) => {
      const [[row]] = await Promise.all([tx<{ one: number }[]>`SELECT 1 AS one`, begun]);
      await tx`INSERT INTO probe (n) VALUES (${row!.one})`;
      await commitWith([tx`INSERT INTO probe (n) VALUES (2)`, tx`INSERT INTO probe (n) VALUES (3)`]);
      return 'done';
    });
    assert.equal(result, 'done');
    assert.deepEqual(await rows(), [1, 2, 3]);
    assert.deepEqual(sent.slice(0, 6).map((query) => query.split(' ')[0]), ['BEGIN', 'SELECT', 'INSERT', 'INSERT', 'INSERT', 'COMMIT']);
  });

  it('commits nothing when one of the last statements fails, and says why', async () => {
    await reset();
    await assert.rejects(
      pipelinedTransaction(sql, async (tx, { begun, commitWith }) => {
        await Promise.all([tx`SELECT 1`, begun]);
        await tx`INSERT INTO probe (n) VALUES (1)`;
        await commitWith([tx`INSERT INTO probe (n) VALUES (2)`, tx`INSERT INTO probe (n) VALUES (2)`, tx`INSERT INTO probe (n) VALUES (3)`]);
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.deepEqual(await rows(), []);
    // The connection is outside any transaction: an autocommit write on it stays.
    await sql`INSERT INTO probe (n) VALUES (9)`;
    assert.deepEqual(await rows(), [9]);
  });

  it('rolls back when the work throws before committing', async () => {
    await reset();
    await assert.rejects(
      pipelinedTransaction(sql, async (tx, { begun }) => {
        await Promise.all([tx`SELECT 1`, begun]);
        await tx`INSERT INTO probe (n) VALUES (1)`;
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(await rows(), []);
    await sql`INSERT INTO probe (n) VALUES (9)`;
    assert.deepEqual(await rows(), [9]);
    assert.equal(sent.filter((query) => query === 'ROLLBACK').length, 1);
  });

  it('is a savepoint inside a caller\'s transaction', async () => {
    await reset();
    await sql.begin(async (outer) => {
      await outer`INSERT INTO probe (n) VALUES (1)`;
      await assert.rejects(
        pipelinedTransaction(outer, async (tx, { begun, commitWith }) => {
          await Promise.all([tx`SELECT 1`, begun]);
          await commitWith([tx`INSERT INTO probe (n) VALUES (2)`, tx`INSERT INTO probe (n) VALUES (1)`]);
        }),
        (error: { code?: string }) => error.code === '23505',
      );
      await pipelinedTransaction(outer, async (tx, { begun, commitWith }) => {
        await Promise.all([tx`SELECT 1`, begun]);
        await commitWith([tx`INSERT INTO probe (n) VALUES (3)`]);
      });
    });
    assert.deepEqual(await rows(), [1, 3]);
  });
});

import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createClient } from '../../src/db/client.ts';
import { endCopyIn, writeToCopy } from '../../src/db/driverQuirks.ts';

/** A stream that takes nothing until told: every write past the first fills it. */
function stalledStream(): Writable {
  const stream = new Writable({ highWaterMark: 1, write: () => {} });
  stream.on('error', () => {});
  return stream;
}

describe('writing to a COPY stream', () => {
  it('fails with the stream error when the stream is destroyed while it is full', async () => {
    const copy = stalledStream();
    const writing = writeToCopy(copy, 'a row\n');
    copy.destroy(new Error('duplicate key value violates unique constraint'));
    await assert.rejects(writing, /duplicate key/);
  });

  it('fails at once on a stream destroyed before the write', async () => {
    const copy = stalledStream();
    copy.destroy(new Error('refused'));
    await assert.rejects(writeToCopy(copy, 'a row\n'), /refused/);
    await assert.rejects(endCopyIn(undefined as never, copy), /refused/);
  });

  it('fails with PostgreSQL error, and does not hang, when a row is refused while more input is still to come', async () => {
    const sql = createClient(process.env.DATABASE_URL!, { max: 1 });
    try {
      const outcome = sql.begin(async (tx) => {
        await tx`CREATE TEMPORARY TABLE copied (id int PRIMARY KEY, padding text)`;
        const copy = await tx.unsafe('COPY copied (id, padding) FROM STDIN').writable();
        copy.on('error', () => {});
        const padding = 'x'.repeat(1000);
        const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${from + i}\t${padding}\n`).join('');
        // A duplicate, then enough rows for PostgreSQL to insert them (and refuse it) before the
        // input ends, as a loaded machine's restore saw: the driver destroys the stream then.
        await writeToCopy(copy, `1\t${padding}\n${rows(1, 300)}`);
        await new Promise((resolve) => (copy.destroyed ? resolve(undefined) : copy.once('close', resolve)));
        await writeToCopy(copy, rows(300, 1300));
        await (
          await endCopyIn(tx, copy)
        ).done;
      });
      await assert.rejects(outcome, /duplicate key/);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

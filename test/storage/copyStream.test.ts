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

  it('fails, and does not hang, when PostgreSQL refuses a row while more input is still being sent', async () => {
    const sql = createClient(process.env.DATABASE_URL!, { max: 1 });
    try {
      const outcome = sql.begin(async (tx) => {
        await tx`CREATE TEMPORARY TABLE copied (id int PRIMARY KEY, padding text)`;
        const copy = await tx.unsafe('COPY copied (id, padding) FROM STDIN').writable();
        copy.on('error', () => {});
        const padding = 'x'.repeat(1000);
        // The duplicate comes first, then megabytes more: PostgreSQL answers long before the end.
        await writeToCopy(copy, `1\t${padding}\n1\t${padding}\n`);
        for (let id = 2; id < 50_000; id += 500) {
          let chunk = '';
          for (let n = id; n < id + 500; n++) chunk += `${n}\t${padding}\n`;
          await writeToCopy(copy, chunk);
        }
        await (await endCopyIn(tx, copy)).done;
      });
      // postgres 3.4.9 drops the COPY's own error once the input has ended: what is heard is the
      // aborted transaction's.
      await assert.rejects(outcome, /duplicate key|current transaction is aborted/);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

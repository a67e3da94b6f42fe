import type { Writable } from 'node:stream';
import type { TransactionSql } from './client.ts';

/**
 * postgres 3.4.9 can flush a connection's buffered small write in a setImmediate after that
 * connection's socket is gone (`nextWrite` in its connection.js) when PostgreSQL goes away in
 * the middle of it. The driver has already failed the query that wrote it; the throw escapes
 * into the event loop, where it would end the whole process and every request in flight with
 * it. Seen under `kill -9` of the embedded postmaster (test/storage/databaseLoss.test.ts).
 */
export function isWriteAfterClose(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    error.message === "Cannot read properties of null (reading 'write')" &&
    /postgres[/\\]src[/\\]connection\.js/.test(error.stack ?? '') &&
    /\bnextWrite\b/.test(error.stack ?? '')
  );
}

/**
 * Ends a `COPY ... FROM STDIN` stream so that its outcome is heard. postgres 3.4.9 forgets the
 * stream once it has sent CopyDone: an error PostgreSQL raises for the COPY after that (a refused
 * row, a lost connection) is dropped, and the stream never finishes, so awaiting it waits forever.
 * Instead, once every write has reached the driver (the empty write's callback comes after all
 * of theirs), end() makes it send CopyDone at once, and a query queued behind the COPY settles
 * the outcome: it fails when the COPY failed (the transaction is aborted), and answers only once
 * the COPY is complete (decision 093).
 *
 * Resolves once CopyDone is sent, with `done`, which settles with the COPY's outcome; the caller
 * may prepare its next COPY meanwhile.
 */
export async function endCopyIn(tx: TransactionSql, copy: Writable): Promise<{ done: Promise<void> }> {
  await new Promise<void>((resolve, reject) => copy.write(Buffer.alloc(0), (error) => (error ? reject(error) : resolve())));
  copy.end();
  const done = tx`SELECT 1`.then(() => undefined);
  // Awaited by the caller; this only keeps a failure from being "unhandled" until then.
  done.catch(() => {});
  return { done };
}

import { isDatabaseUnavailable } from '../lib/databaseErrors.ts';
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
 * postgres 3.4.9 starts every new connection with a query of its own (the array types,
 * `fetch_types`) and drops that query's promise (`fetchArrayTypes()` in `ReadyForQuery`, its
 * connection.js; porsager/postgres#1192, #1205, #1223). When the connection fails at that moment
 * (the embedded PostgreSQL restarting: refused, shutting down, closed), the rejection reaches no
 * handler. Seen as SIGTERM about 450 ms after the embedded postmaster was killed ended the server
 * with exit code 1 (test/storage/stopWhileRestarting.test.ts, once or twice in 30 stops). The
 * connection is retried by the driver and the health monitor sees the database down by itself,
 * so the rejection is logged rather than allowed to end the process and every request in flight.
 * Only an unhandled rejection that says the database is gone qualifies: any other still ends it.
 */
export function isLostQueryUnheard(error: unknown, origin: NodeJS.UncaughtExceptionOrigin): boolean {
  return origin === 'unhandledRejection' && isDatabaseUnavailable(error);
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
  if (copy.destroyed) throw copyEndedEarly(copy);
  await new Promise<void>((resolve, reject) => copy.write(Buffer.alloc(0), (error) => (error ? reject(copy.errored ?? error) : resolve())));
  copy.end();
  // The COPY's own error (a refused row) says more than the aborted transaction's.
  const done = tx`SELECT 1`.then(
    () => undefined,
    (error: unknown) => {
      throw copy.errored ?? error;
    },
  );
  // Awaited by the caller; this only keeps a failure from being "unhandled" until then.
  done.catch(() => {});
  return { done };
}

/**
 * Writes to a `COPY ... FROM STDIN` stream, waiting while it is full. postgres 3.4.9 destroys the
 * stream when PostgreSQL refuses a row before the input ends, and a destroyed stream never
 * drains: waiting for 'drain' alone hung the restore for good. The stream's close ends the wait
 * too, with PostgreSQL's error.
 */
export async function writeToCopy(copy: Writable, chunk: string): Promise<void> {
  if (copy.destroyed) throw copyEndedEarly(copy);
  if (copy.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = () => {
      copy.off('drain', settle);
      copy.off('close', settle);
      if (copy.destroyed) reject(copyEndedEarly(copy));
      else resolve();
    };
    copy.on('drain', settle);
    copy.on('close', settle);
    // Destroyed between the write and these listeners: 'close' may already have been emitted.
    if (copy.destroyed) settle();
  });
}

function copyEndedEarly(copy: Writable): Error {
  return copy.errored ?? new Error('the COPY ended before all its rows were sent');
}

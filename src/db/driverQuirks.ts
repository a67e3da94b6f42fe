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

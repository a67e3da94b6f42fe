import crypto from 'node:crypto';
import net from 'node:net';

/**
 * Ports a test picks before it listens (a BASE_URL the server must know when it starts, a port to
 * publish a container on) come from below Linux's ephemeral range (32768-60999 by default): the
 * kernel hands the ephemeral ones to every outgoing connection, a PostgreSQL client's among them,
 * so a port found free there could be taken before the test listened on it (EADDRINUSE). Here
 * only another test that picks the same port could take it; each process starts at a random place.
 */
const LOWEST = 20_000;
const HIGHEST = 32_767;
let next = LOWEST + crypto.randomInt(HIGHEST - LOWEST + 1);

export async function freePort(): Promise<number> {
  for (let tried = 0; tried <= HIGHEST - LOWEST; tried++) {
    const port = next;
    next = next === HIGHEST ? LOWEST : next + 1;
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

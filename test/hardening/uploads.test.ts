import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import { BODY_STALL_MS, BODY_TIMEOUT_MS, LARGE_BODY_TIMEOUT_MS, MAX_CONCURRENT_LARGE_UPLOADS } from '../../src/http/uploads.ts';
import { useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

const t = useTestApp();
/** The same application, listening, with budgets short enough for a test. */
let app: App;
let port: number;
const limits = { bodyTimeoutMs: 1500, largeBodyTimeoutMs: 5000, stallMs: 1000, maxLargeUploads: 2 };

/** A raw HTTP request whose body the test sends (or withholds) itself. */
async function rawRequest(path: string, key: string, contentLength: number) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => response);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
  return { socket, closed, response: () => response };
}

function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
}

function jsonOf(response: string): Record<string, unknown> {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('request bodies have a time budget', () => {
  // Inside the suite: the shared application's services exist by then.
  before(async () => {
    app = await buildApp({ services: t.services, uploadLimits: limits });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  after(async () => app?.close());

  it('documents its defaults: 30 s for a body, 10 min for an import, 10 s of silence, 2 imports at a time', () => {
    assert.equal(BODY_TIMEOUT_MS, 30_000);
    assert.equal(LARGE_BODY_TIMEOUT_MS, 600_000);
    assert.equal(BODY_STALL_MS, 10_000);
    assert.equal(MAX_CONCURRENT_LARGE_UPLOADS, 2);
  });

  it('answers a body trickled one byte at a time 408 {error} once its budget is spent, and closes the connection', async () => {
    const org = await t.org();
    const started = Date.now();
    const request = await rawRequest('/api/events', org.key, 1000);
    const trickle = setInterval(() => request.socket.writable && request.socket.write('{'), 300);
    try {
      const response = await request.closed;
      const elapsed = Date.now() - started;
      assert.equal(statusOf(response), 408, response);
      assert.equal(typeof jsonOf(response).error, 'string');
      assert.ok(elapsed >= limits.bodyTimeoutMs - 100 && elapsed < limits.bodyTimeoutMs + 2000, `closed after ${elapsed} ms`);
    } finally {
      clearInterval(trickle);
    }
  });

  it('answers a body that stalls 408 and closes the connection', async () => {
    const org = await t.org();
    const started = Date.now();
    const request = await rawRequest('/api/events', org.key, 1000);
    request.socket.write('{"project":');
    const response = await request.closed;
    assert.equal(statusOf(response), 408, response);
    assert.match(String(jsonOf(response).error), /stalled/);
    assert.ok(Date.now() - started < limits.stallMs + 2000);
  });

  it('gives an import the larger budget', async () => {
    const org = await t.org();
    const body = JSON.stringify({ version: 1, projects: [{ name: 'Slow', events: [{ category: 'c', title: 't', created_at: 1700000000 }] }] });
    const request = await rawRequest('/api/import', org.key, Buffer.byteLength(body));
    // Longer than an ordinary body may take, well within the import's budget, never silent for long.
    const pieces = body.match(/.{1,8}/g) ?? [];
    const pause = Math.ceil((limits.bodyTimeoutMs * 1.5) / pieces.length);
    for (const piece of pieces.slice(0, -1)) {
      request.socket.write(piece);
      await sleep(pause);
    }
    // Time itself: a silent pause, shorter than the stall limit, before the last piece.
    await sleep(300);
    request.socket.write(pieces.at(-1) ?? '');
    // The socket stays open until the reply is in: a client that half-closes its end makes Node
    // abort a request still being answered, and a loaded database may take a while to answer.
    const response = await waitUntil(() => (statusOf(request.response()) ? request.response() : ''), {
      message: 'the reply to the import',
      timeoutMs: limits.largeBodyTimeoutMs,
    });
    request.socket.destroy();
    assert.equal(statusOf(response), 200, response);
  });

  it('takes at most two imports at a time; the next gets 503 with Retry-After, and a slot frees when one ends', async () => {
    const org = await t.org();
    const holders = [await rawRequest('/api/import', org.key, 100_000), await rawRequest('/api/import', org.key, 100_000)];
    // app.inject goes through the same hooks but not the listening server: use the listening one.
    const importOnServer = () =>
      fetch(`http://127.0.0.1:${port}/api/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ version: 1, projects: [] }),
      });
    const importStatus = async () => (await importOnServer()).status;
    for (const holder of holders) holder.socket.write('{"version":1,');
    // Both imports hold their slots once the third is refused.
    await waitUntil(async () => (await importStatus()) === 503, { message: 'both slots to be taken' });
    const refused = await t.request({
      method: 'POST',
      url: '/api/import',
      body: { version: 1, projects: [] },
      headers: { authorization: `Bearer ${org.key}` },
    });
    const third = await importOnServer();
    assert.equal(third.status, 503);
    assert.equal(third.headers.get('retry-after'), '5');
    assert.equal(typeof ((await third.json()) as { error: unknown }).error, 'string');
    assert.equal(refused.status, 200, 'the other application has its own bound');

    holders[0]!.socket.destroy();
    // The fourth import is taken once the freed slot is seen.
    await waitUntil(async () => (await importStatus()) === 200, { message: 'the freed slot to take an import' });
    holders[1]!.socket.destroy();
    // Ordinary requests are never held by the bound on imports.
    const project = await fetch(`http://127.0.0.1:${port}/api/projects`, { headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(project.status, 200);
  });
});

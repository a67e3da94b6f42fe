import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import type { TestApp } from '../helpers.ts';

/** The test app listening on a loopback port (from its first use), for clients that speak real HTTP. */
export function listen(t: TestApp): { url: () => Promise<string> } {
  let listening: Promise<string> | undefined;
  return { url: () => (listening ??= t.app.listen({ port: 0, host: '127.0.0.1' })) };
}

/**
 * What the proxy does with the n-th request (1-based): pass it on, pass it on and then drop the
 * connection without a reply (the server did the work, the client never hears), or answer itself.
 */
export type Behaviour = 'forward' | 'forward-then-drop' | { status: number; headers?: Record<string, string>; body?: unknown };

export interface Proxy {
  url: string;
  /** Requests seen, with their Idempotency-Key and body. */
  seen: Array<{ method: string; path: string; key: string | undefined; body: string; at: number }>;
  close(): Promise<void>;
}

/** A loopback HTTP proxy in front of `target` that misbehaves as `behave` says. */
export async function startProxy(target: string, behave: (n: number) => Behaviour): Promise<Proxy> {
  const seen: Proxy['seen'] = [];
  const relay = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const key = request.headers['idempotency-key'];
    seen.push({ method: request.method ?? '', path: request.url ?? '', key: typeof key === 'string' ? key : undefined, body, at: Date.now() });
    const behaviour = behave(seen.length);
    if (typeof behaviour === 'object') {
      response.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
      response.end(JSON.stringify(behaviour.body ?? { error: 'proxy says no' }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as Array<[string, string]>,
    );
    const upstream = await fetch(new URL(request.url ?? '/', target), {
      method: request.method,
      headers,
      body: body === '' ? undefined : body,
    });
    const text = await upstream.text();
    if (behaviour === 'forward-then-drop') {
      request.socket.destroy();
      return;
    }
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(text);
  };
  // A proxy that cannot reach its target drops the connection, as a real one would.
  const server = http.createServer((request, response) => {
    relay(request, response).catch(() => request.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Proxies started in a file, closed after it. */
export function proxies(): (target: string, behave: (n: number) => Behaviour) => Promise<Proxy> {
  const open: Proxy[] = [];
  after(async () => {
    await Promise.all(open.map((proxy) => proxy.close()));
  });
  return async (target, behave) => {
    const proxy = await startProxy(target, behave);
    open.push(proxy);
    return proxy;
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/features/delivery/deliveryWorker.ts';
import type { TestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

export interface Received {
  /** performance.now() when the request finished arriving. */
  at: number;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = number | { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers for the coming requests in order; the last one repeats. */
  answers: Answer[];
  /** Ten seconds by default: a loaded CI machine may stall a pass for seconds. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request and answers as scripted. */
export async function startReceiver(answers: Answer[] = [200]): Promise<Receiver> {
  const received: Received[] = [];
  let served = 0;
  const receiver = { answers } as Receiver;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        at: performance.now(),
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const list = receiver.answers;
      const answer = list[Math.min(served++, list.length - 1)] ?? 200;
      if (answer === 'hang') return;
      const { status, headers = {}, body = '' } = typeof answer === 'number' ? { status: answer } : answer;
      response.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    waitFor: (count: number, timeoutMs = 10_000) => waitUntil(() => received.length >= count, { timeoutMs, message: `${count} requests` }).then(() => received),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/**
 * A started worker with a fast retry schedule unless the test asks for another. It takes every
 * organization's work, so the file must have a database of its own.
 */
export function startWorker(t: TestApp, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  if (!t.ownDatabase) throw new Error('a delivery worker takes the work of every organization: use useTestApp(env, { ownDatabase: true })');
  const worker = new DeliveryWorker(t.services, {
    retryDelaysMs: [100, 300],
    pollIntervalMs: 100,
    ...options,
  });
  worker.start();
  return worker;
}

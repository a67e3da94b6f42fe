import type { FastifyReply } from 'fastify';
import { liveConnectionClosed, liveConnectionOpened } from '../../metrics.ts';

/** Reconnection delay the browser is told to use. */
const RETRY_MS = 3000;
/** A client that falls this far behind is dropped; it reconnects and reloads what it missed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Event names are written on their own line; anything else is sent as a plain message. */
const SAFE_EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

/**
 * A Server-Sent Events response. The reply is hijacked, so Fastify neither serializes nor
 * times it out; this object owns the socket until close().
 */
export class EventStream {
  private closed = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly reply: FastifyReply) {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise hold events back to fill a buffer.
      'x-accel-buffering': 'no',
    });
    liveConnectionOpened();
    res.on('close', () => this.finish());
    this.write(`retry: ${RETRY_MS}\n\n`);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  send(event: string, data: unknown): void {
    const name = SAFE_EVENT_NAME.test(event) ? `event: ${event}\n` : '';
    this.write(`${name}data: ${JSON.stringify(data)}\n\n`);
  }

  comment(text: string): void {
    this.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  close(): void {
    if (!this.closed) this.reply.raw.end();
    this.finish();
  }

  private write(chunk: string): void {
    if (this.closed) return;
    const res = this.reply.raw;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.close();
      return;
    }
    res.write(chunk);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    liveConnectionClosed();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

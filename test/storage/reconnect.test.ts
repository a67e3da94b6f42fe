import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import type { Announcement } from '../../src/db/bus.ts';
import { useTestApp } from '../helpers.ts';
import { sleep, waitUntil } from '../wait.ts';

/**
 * A TCP proxy between the application and PostgreSQL that the test can cut (every connection
 * dropped, new ones refused) and restore: the database "goes away" for this application alone,
 * without disturbing the other test files that share it.
 */
class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;
  readonly server: net.Server;

  constructor(private readonly upstream: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (this.cutOff) return client.destroy();
      const server = net.connect(this.upstream.port, this.upstream.host);
      for (const socket of [client, server]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(server).pipe(client);
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port)));
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }
}

const upstreamUrl = new URL(process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432/eventlog');
const proxy = new CuttableProxy({ host: upstreamUrl.hostname, port: Number(upstreamUrl.port || 5432) });
const proxiedUrl = new URL(upstreamUrl);
proxiedUrl.hostname = '127.0.0.1';
proxiedUrl.port = String(await proxy.listen());
after(() => {
  proxy.restore();
  proxy.server.close();
});

const t = useTestApp({ DATABASE_URL: proxiedUrl.toString() });

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe('DATABASE_URL: the database goes away and comes back', () => {
  it('answers 503 {error} fast while it is gone, and reconnects (queries and LISTEN) as soon as it is back', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 'before' })).status, 201);
    assert.equal((await t.request({ method: 'GET', url: '/healthz' })).status, 200);

    proxy.cut();
    for (let i = 0; i < 5; i++) {
      const { value: reply, ms } = await timed(() => org.post('/api/events', { project, category: 'c', title: `during ${i}` }));
      assert.equal(reply.status, 503, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.ok(ms <= 2000, `answered in ${ms} ms`);
      const list = await timed(() => org.get(`/api/events?project=${project}`));
      assert.equal(list.value.status, 503);
      assert.ok(list.ms <= 2000, `answered in ${list.ms} ms`);
    }
    const health = await timed(() => t.request({ method: 'GET', url: '/healthz' }));
    assert.equal(health.value.status, 503);
    assert.deepEqual(Object.keys(health.value.body), ['error']);
    assert.ok(health.ms <= 2000, `/healthz answered in ${health.ms} ms`);
    assert.equal((await t.request({ method: 'GET', url: '/livez' })).status, 200);

    proxy.restore();
    const back = Date.now();
    await waitUntil(async () => (await t.request({ method: 'GET', url: '/healthz' })).status === 200, {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: '/healthz to answer 200',
    });
    await waitUntil(async () => (await org.post('/api/events', { project, category: 'c', title: 'after' })).status === 201, {
      timeoutMs: 10_000,
      intervalMs: 100,
      message: 'a write to succeed',
    });
    assert.ok(Date.now() - back < 5000, `reconnected after ${Date.now() - back} ms`);

    // The bus listens again: another write is announced to this process.
    const heard: Announcement[] = [];
    const unsubscribe = t.services.bus.subscribe((announcement) => heard.push(announcement));
    try {
      await waitUntil(
        async () => {
          const reply = await org.post('/api/events', { project, category: 'c', title: 'announced' });
          assert.equal(reply.status, 201);
          // Time itself: the pace of the writes, each given a moment to be announced.
          await sleep(200);
          return heard.some((a) => a.type === 'event.created' && a.organizationId === org.id);
        },
        { timeoutMs: 10_000, intervalMs: 100, message: 'the bus to hear a new write' },
      );
    } finally {
      unsubscribe();
    }
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM events WHERE organization_id = ${org.id}`;
    assert.ok(row!.n >= 3);
    assert.equal(heard.length > 0, true);
  });
});

// The bus that announces writes to every process (PostgreSQL NOTIFY), on a real database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Announcement, Bus, packAnnouncements } from '../../src/db/bus.ts';
import { type Sql, createClient } from '../../src/db/client.ts';
import { EvictingCache } from '../../src/lib/evictingCache.ts';
import { useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

const t = useTestApp();

/** The same client, counting the queries sent through it as a tagged template. */
function counting(sql: Sql): { sql: Sql; queries: () => number } {
  let queries = 0;
  const proxy = new Proxy(sql, {
    apply(target, self, args: Parameters<Sql>) {
      queries += 1;
      return Reflect.apply(target, self, args);
    },
  });
  return { sql: proxy, queries: () => queries };
}

describe('the bus', () => {
  let sql: Sql;
  let listener: Bus;
  const heard: Announcement[] = [];

  before(async () => {
    // Another process's view: its own pool and bus on the same database.
    sql = createClient(t.services.config.databaseUrl!, { max: 2 });
    listener = new Bus(sql, () => {});
    await listener.start();
    listener.subscribe((announcement) => heard.push(announcement));
  });

  after(async () => {
    await listener.close();
    await sql.end();
  });

  async function hear(organizationId: string, count: number): Promise<Announcement[]> {
    const mine = () => heard.filter((announcement) => announcement.organizationId === organizationId);
    await waitUntil(() => mine().length >= count, { timeoutMs: 5000, message: `${count} announcements` });
    return mine();
  }

  it('sends the announcements of one turn of the event loop in one query, in order', async () => {
    const sender = counting(t.services.sql);
    const bus = new Bus(sender.sql, () => {});
    const organizationId = `bus-${Date.now()}`;
    for (let id = 1; id <= 50; id++) bus.announce({ type: 'event.created', organizationId, projectId: 'p', id });
    bus.announce([
      { type: 'event.created', organizationId, projectId: 'p', id: 51 },
      { type: 'event.created', organizationId, projectId: 'p', id: 52 },
    ]);
    const mine = await hear(organizationId, 52);
    assert.deepEqual(
      mine.map((announcement) => announcement.id),
      Array.from({ length: 52 }, (_, i) => i + 1),
    );
    assert.equal(sender.queries(), 1);

    bus.announce({ type: 'event.deleted', organizationId, projectId: 'p', id: 53 });
    await hear(organizationId, 53);
    assert.equal(sender.queries(), 2, 'a later turn sends its own query');
  });

  it("packs them into as few notifications as fit under PostgreSQL's 8000 bytes", async () => {
    const organizationId = `bus-pack-${Date.now()}`;
    const payloads: string[] = [];
    const raw = await sql.listen('eventlog', (payload) => {
      if (payload.includes(organizationId)) payloads.push(payload);
    });
    const bus = new Bus(t.services.sql, () => {});
    // Announcements of about 120 bytes: 300 of them are about 36 KB, five notifications.
    for (let id = 1; id <= 300; id++) bus.announce({ type: 'event.created', organizationId, projectId: 'project-with-a-long-name-é', id });
    const mine = await hear(organizationId, 300);
    assert.deepEqual(
      mine.map((announcement) => announcement.id),
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    await waitUntil(() => payloads.reduce((sum, payload) => sum + (JSON.parse(payload) as unknown[]).length, 0) >= 300, {
      timeoutMs: 5000,
      message: 'the raw listener to hear every announcement',
    });
    await raw.unlisten();
    assert.ok(payloads.length <= 6, `${payloads.length} notifications for 300 announcements`);
    for (const payload of payloads) assert.ok(Buffer.byteLength(payload) < 8000, `a payload of ${Buffer.byteLength(payload)} bytes`);
  });

  it('packs in order, by bytes rather than characters, and never splits an announcement', () => {
    const packed = (text: string) => ({ text, packable: true });
    const wide = JSON.stringify({ text: 'é'.repeat(3000) });
    assert.deepEqual(packAnnouncements([]), []);
    assert.deepEqual(packAnnouncements([packed('{"a":1}'), packed('{"b":2}')]), ['[{"a":1},{"b":2}]']);
    assert.deepEqual(packAnnouncements([packed(wide), packed(wide), packed('{"c":3}')]), [`[${wide}]`, `[${wide},{"c":3}]`]);
  });

  it("sends every announcement but a new event's alone, as the object itself, in its place", () => {
    const event = (id: number) => ({ text: `{"id":${id}}`, packable: true });
    const revoked = { text: '{"type":"key.revoked"}', packable: false };
    assert.deepEqual(packAnnouncements([event(1), event(2), revoked, event(3)]), ['[{"id":1},{"id":2}]', '{"type":"key.revoked"}', '[{"id":3}]']);
  });

  it('hears a notification of a single announcement, as a process from before packing sends it', async () => {
    const organizationId = `bus-single-${Date.now()}`;
    await t.services.sql`SELECT pg_notify('eventlog', ${JSON.stringify({ type: 'event.created', organizationId, projectId: 'p', id: 7 })})`;
    assert.deepEqual(
      (await hear(organizationId, 1)).map((announcement) => announcement.id),
      [7],
    );
  });

  it('sends what is still pending when it closes', async () => {
    const bus = new Bus(t.services.sql, () => {});
    const organizationId = `bus-close-${Date.now()}`;
    bus.announce({ type: 'event.created', organizationId, projectId: 'p', id: 1 });
    await bus.close();
    assert.deepEqual(
      (await hear(organizationId, 1)).map((announcement) => announcement.id),
      [1],
    );
  });

  it('logs a failed announcement and never throws to the writer', async () => {
    const errors: string[] = [];
    const broken = (() => Promise.reject(new Error('database gone'))) as unknown as Sql;
    const bus = new Bus(broken, (_error, message) => errors.push(message));
    bus.announce({ type: 'event.created', organizationId: 'nobody', projectId: 'p', id: 1 });
    await bus.close();
    assert.deepEqual(errors, ['announcing a write failed']);
  });

  it('after listening again, caches kept by its announcements forget what they hold', async () => {
    const bus = new Bus(sql, () => {});
    await bus.start();
    const cache = new EvictingCache<{ id: string }>(bus.evictionFeed(new Set(['key.revoked'])), { idOf: (value) => value.id });
    let loads = 0;
    const load = () => Promise.resolve({ id: `key-${++loads}` });
    assert.deepEqual(await cache.get('k', load), { id: 'key-1' });
    assert.deepEqual(await cache.get('k', load), { id: 'key-1' }, 'served from the cache');
    // A revocation announced while the bus was not listening would never be heard.
    await bus.relisten();
    assert.deepEqual(await cache.get('k', load), { id: 'key-2' }, 'read again from the database');
    cache.close();
    await bus.close();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Eventlog, EventlogError } from '../../client/src/index.ts';
import { useTestApp } from '../helpers.ts';
import { listen, proxies } from './support.ts';

/** extensions.md, "Batch ingestion": the client's `trackMany`. */
const t = useTestApp();
const server = listen(t);
const proxy = proxies();

describe('@eventlog/client trackMany', () => {
  it('sends one request per 1,000 items and answers every event in item order', async () => {
    const org = await t.org();
    const project = await org.project();
    const other = await org.project('Other');
    const counting = await proxy(await server.url(), () => 'forward');
    const log = new Eventlog({ token: org.key, project, baseUrl: counting.url, retryDelayMs: 10 });
    const items = Array.from({ length: 2500 }, (_, i) => ({ category: 'bulk', title: `#${i}`, userId: `u${i % 7}`, timestamp: 1_700_000_000 + i }));
    items[3] = { ...items[3]!, project: 'Other' } as (typeof items)[number];
    const events = await log.trackMany(items);
    assert.equal(events.length, 2500);
    assert.deepEqual(
      events.map((e) => e.title),
      items.map((i) => i.title),
    );
    assert.ok(
      events.every((e, i) => i === 0 || e.id > events[i - 1]!.id),
      'ids increase in item order',
    );
    assert.equal(events[3]!.projectId, other);
    assert.equal(events[4]!.projectId, project);
    assert.deepEqual(
      counting.seen.map((s) => [s.path, (JSON.parse(s.body) as { events: unknown[] }).events.length]),
      [
        ['/api/events/batch', 1000],
        ['/api/events/batch', 1000],
        ['/api/events/batch', 500],
      ],
    );
    assert.equal(new Set(counting.seen.map((s) => s.key)).size, 3, 'each request has its own Idempotency-Key');
    assert.deepEqual(await log.trackMany([]), []);
    assert.equal(counting.seen.length, 3, 'nothing to send, nothing sent');
  });

  it('retries a request as track does, with the same key, writing its events once', async () => {
    const org = await t.org();
    const project = await org.project();
    const flaky = await proxy(await server.url(), (n) => (n === 1 ? 'forward-then-drop' : n === 2 ? { status: 503 } : 'forward'));
    const log = new Eventlog({ token: org.key, project, baseUrl: flaky.url, retryDelayMs: 10 });
    const events = await log.trackMany([
      { category: 'c', title: 'a' },
      { category: 'c', title: 'b' },
    ]);
    assert.deepEqual(
      events.map((e) => e.title),
      ['a', 'b'],
    );
    assert.equal(flaky.seen.length, 3);
    assert.ok(flaky.seen[0]!.key && flaky.seen.every((s) => s.key === flaky.seen[0]!.key));
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events.length, 2);
  });

  it("throws EventlogError with the refused item's index among all the items; no 4xx is retried", async () => {
    const org = await t.org();
    const project = await org.project();
    const counting = await proxy(await server.url(), () => 'forward');
    const log = new Eventlog({ token: org.key, project, baseUrl: counting.url, retryDelayMs: 10 });
    const items = Array.from({ length: 1200 }, (_, i) => ({ category: 'bulk', title: i === 1100 ? ' ' : `#${i}` }));
    await assert.rejects(log.trackMany(items), (error: unknown) => {
      assert.ok(error instanceof EventlogError);
      assert.equal(error.status, 400);
      assert.equal(error.index, 1100);
      return true;
    });
    assert.equal(counting.seen.length, 2);
    assert.equal((await org.get(`/api/events?project=${project}&limit=100`)).body.events.length, 100, 'the first request stays written');
  });
});

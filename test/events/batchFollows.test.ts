import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Announcement } from '../../src/db/bus.ts';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { RetentionPruner } from '../../src/features/events/retentionPruner.ts';
import { startReceiver, startWorker } from '../destinations/support.ts';
import { useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

/**
 * extensions.md, "Batch ingestion": everything that follows one event follows each item of a
 * batch. A database of its own: the delivery worker takes every organization's work.
 */
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' }, { ownDatabase: true });

const BATCH = '/api/events/batch';
const now = () => Math.floor(Date.now() / 1000);

describe('what follows each item of a batch', () => {
  it('categories, application users, search and the live feed', async () => {
    const org = await t.org();
    const project = await org.project();
    const heard: Announcement[] = [];
    const unsubscribe = t.services.bus.subscribe((announcement) => {
      if (announcement.organizationId === org.id) heard.push(announcement);
    });
    try {
      const reply = await org.post(BATCH, {
        events: [
          { project, category: 'signup', title: 'wombat arrives', user_id: 'ann' },
          { project, category: 'pay', title: 'wombat pays', user_id: 'ann', created_at: now() - 3600 },
          { project, category: 'signup', title: 'quokka arrives', user_id: 'bob' },
        ],
      });
      assert.equal(reply.status, 201);
      const ids = reply.body.events.map((e: { id: number }) => e.id);
      const categories = (await org.get(`/api/categories?project=${project}`)).body;
      assert.deepEqual(categories.map((c: { name: string; count: number }) => [c.name, c.count]).sort(), [
        ['pay', 1],
        ['signup', 2],
      ]);
      const users = (await org.get(`/api/users?project=${project}`)).body.users;
      assert.deepEqual(users.map((u: { user_id?: string; userId?: string; eventCount?: number }) => u.user_id ?? u.userId).sort(), ['ann', 'bob']);
      await waitUntil(async () => (await org.get(`/api/events?project=${project}&search=wombat`)).body.events.length === 2, {
        timeoutMs: 10_000,
        message: 'search finds the batch',
      });
      await waitUntil(() => ids.every((id: number) => heard.some((a) => a.type === 'event.created' && a.id === id)), {
        timeoutMs: 5_000,
        message: 'every event announced',
      });
    } finally {
      unsubscribe();
    }
  });

  it('notify fan-out: one delivery per notify item and destination', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const receivers = [await startReceiver(), await startReceiver()];
    tc.after(() => Promise.all(receivers.map((r) => r.close())));
    for (const receiver of receivers) {
      const created = await org.post(`/api/projects/${project}/destinations`, { name: 'r', url: receiver.url, format: 'json' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    const worker = startWorker(t);
    tc.after(() => worker.stop());
    const reply = await org.post(BATCH, {
      events: [
        { project, category: 'deploys', title: 'one', notify: true },
        { project, category: 'deploys', title: 'quiet' },
        { project, category: 'deploys', title: 'two', notify: true },
      ],
    });
    assert.equal(reply.status, 201);
    await waitUntil(() => receivers.every((r) => r.received.length >= 2), { timeoutMs: 15_000, message: 'two deliveries at each destination' });
    for (const receiver of receivers) {
      const titles = receiver.received.map((r) => (JSON.parse(r.body) as { event: { title: string } }).event.title).sort();
      assert.deepEqual(titles, ['one', 'two']);
    }
  });

  it('alerts count the items, and retention prunes an item already too old', async () => {
    const org = await t.org();
    const project = await org.project();
    const alert = await org.post(`/api/projects/${project}/alerts`, {
      name: 'Errors',
      condition: { count: 'atLeast', threshold: 3, windowSeconds: 600 },
      filter: { category: 'errors' },
    });
    assert.equal(alert.status, 201, JSON.stringify(alert.body));
    // Dated events count only from the alert's creation on: as if it had been created a minute ago.
    const [row] = await t.services.sql<{ at: Date }[]>`SELECT window_start AS at FROM alerts WHERE organization_id = ${org.id} AND id = ${alert.body.id}`;
    await t.services.sql`
      UPDATE alerts SET window_start = ${new Date(row!.at.getTime() - 60_000)}, next_due_at = ${new Date()}
      WHERE organization_id = ${org.id} AND id = ${alert.body.id}`;
    const errors = Array.from({ length: 3 }, (_, i) => ({ project, category: 'errors', title: `boom ${i}`, created_at: now() - 5 }));
    assert.equal((await org.post(BATCH, { events: errors })).status, 201);
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    assert.equal((await org.get(`/api/alerts/${alert.body.id}`)).body.state, 'firing');

    const kept = await org.project('Kept');
    assert.equal(
      (await t.request({ method: 'PATCH', url: `/api/projects/${kept}`, body: { retentionDays: 7 }, headers: { authorization: `Bearer ${org.key}` } })).status,
      200,
    );
    const reply = await org.post(BATCH, {
      events: [
        { project: kept, category: 'c', title: 'fresh' },
        { project: kept, category: 'c', title: 'old', created_at: now() - 30 * 86_400 },
      ],
    });
    assert.equal(reply.status, 201);
    await new RetentionPruner(t.services.sql, { intervalSeconds: 1, timeZone: t.services.config.timeZone, log: t.services.log }).runOnce();
    assert.deepEqual(
      (await org.get(`/api/events?project=${kept}`)).body.events.map((e: { title: string }) => e.title),
      ['fresh'],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import postgres from 'postgres';
import { withTransaction } from '../../src/db/client.ts';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { fanOutBatch } from '../../src/features/delivery/fanOutBatch.ts';
import { holdInGroup } from '../../src/features/delivery/groupFanOut.ts';
import { insertDeliveries } from '../../src/features/delivery/queries.ts';
import type { EventObject } from '../../src/features/events/eventObject.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

/**
 * On Citus, every statement of a hot request must run on the one shard of its organization: a
 * plan that visits several shards, or pulls rows through the coordinator, serialises on the
 * coordinator what should scale with the workers (docs/scaling.md). Each request's statements are
 * caught as the driver sends them and explained with the same parameters; a statement that stops
 * being routed fails here, with its plan. On the other stores there is nothing to check.
 */
const onCitus = process.env.EVENTLOG_TEST_STORE === 'citus';
const sent: Array<{ query: string; parameters: unknown[] }> = [];
const t = useTestApp({}, { onQuery: (query, parameters) => sent.push({ query, parameters }) });

/** What makes a plan more than one shard's. */
const SPREAD = [/Task Count: (?!1\b)\d+/, /Distributed Subplan/, /pull to coordinator/, /repartition/i, /Citus MERGE/];

/** The statements `request` sent, without transaction control (SET LOCAL included: it has no plan) and catalog reads. */
async function statementsOf(request: () => Promise<unknown>): Promise<Array<{ query: string; parameters: unknown[] }>> {
  sent.length = 0;
  await request();
  return sent.filter(({ query }) => !/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET |select pg_notify|SELECT pg_notify)/i.test(query));
}

/** Each statement explained on the coordinator with its parameters: its plan as text. */
async function plansOf(statements: Array<{ query: string; parameters: unknown[] }>): Promise<string[]> {
  const explain = postgres(t.databaseUrl, { max: 1, onnotice: () => {} });
  const plans: string[] = [];
  try {
    for (const { query, parameters } of statements) {
      const plan = (await explain.unsafe(`EXPLAIN (COSTS OFF) ${query}`, parameters as never[])) as Array<Record<string, string>>;
      plans.push(plan.map((row) => row['QUERY PLAN']).join('\n'));
    }
  } finally {
    await explain.end({ timeout: 5 });
  }
  return plans;
}

/** Every statement explained on the coordinator; the ones whose plan spreads, with the plan. */
async function spreading(statements: Array<{ query: string; parameters: unknown[] }>): Promise<string[]> {
  const plans = await plansOf(statements);
  return statements.flatMap(({ query }, i) => (SPREAD.some((pattern) => pattern.test(plans[i]!)) ? [`${query.trim()}\n--- plan ---\n${plans[i]}`] : []));
}

async function assertRouted(name: string, request: () => Promise<unknown>): Promise<void> {
  const statements = await statementsOf(request);
  assert.ok(statements.length > 0, `${name} sent no statement`);
  assert.deepEqual(await spreading(statements), [], `${name}: statements not routed to one shard`);
}

describe('every hot statement on Citus runs on one shard', { skip: !onCitus && 'the store is not Citus' }, () => {
  let org: TestOrg;
  let project: string;
  let eventId: number;

  it('the check itself sees a statement that visits every shard', async () => {
    assert.equal((await spreading([{ query: 'SELECT count(*) FROM events', parameters: [] }])).length, 1);
  });

  it('ingest: one event, a notify event with a user, and a batch', async () => {
    org = await t.org();
    project = await org.project('Plans');
    await assertRouted('POST /api/events', async () => {
      const reply = await org.post('/api/events', { project, category: 'signup', title: 'One', tags: { plan: 'pro' } });
      assert.equal(reply.status, 201);
      eventId = reply.body.id as number;
    });
    await assertRouted('POST /api/events (notify, user)', async () => {
      const reply = await org.post('/api/events', { project, category: 'payment', title: 'Paid', user_id: 'u1', notify: true });
      assert.equal(reply.status, 201);
    });
    await assertRouted('POST /api/events (concurrent)', async () => {
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => org.post('/api/events', { project, category: `c${i % 3}`, title: `e${i}`, user_id: `u${i % 2}` })),
      );
      assert.ok(replies.every((reply) => reply.status === 201));
    });
    await assertRouted('POST /api/events/batch (two projects, by id and name, notify, users)', async () => {
      const second = await org.project('Plans too');
      const events = Array.from({ length: 20 }, (_, i) => ({
        project: i % 2 ? 'Plans too' : project,
        category: `b${i % 3}`,
        title: `b${i}`,
        user_id: `u${i % 4}`,
        notify: i % 5 === 0,
      }));
      const reply = await org.post('/api/events/batch', { events });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.events[1].projectId, second);
    });
  });

  it("ingest: the batch's function is sent whole to its organization's node, so its statements run on local shards", async () => {
    // Its inner statements are not sent by the driver; on the worker, one that is not local to the
    // organization's shard would fail (Citus refuses a distributed query from a delegated call).
    const statements = await statementsOf(async () =>
      assert.equal((await org.post('/api/events', { project, category: 'c', title: 'Delegated' })).status, 201),
    );
    const call = statements.find(({ query }) => /ingest_events\(/.test(query));
    assert.ok(call, 'the batch is written by ingest_events');
    const [plan] = await plansOf([call]);
    assert.match(plan!, /Custom Scan \(Citus Adaptive\)[\s\S]*Task Count: 1\b/, `not delegated:\n${plan}`);
  });

  it("ingest: a client's batch is one call of the function, sent whole to its organization's node", async () => {
    const events = Array.from({ length: 50 }, (_, i) => ({ project, category: 'c', title: `Batch ${i}` }));
    const statements = await statementsOf(async () => assert.equal((await org.post('/api/events/batch', { events })).status, 201));
    const calls = statements.filter(({ query }) => /ingest_events\(/.test(query));
    assert.equal(calls.length, 1, 'one statement for the whole batch');
    const [plan] = await plansOf([calls[0]!]);
    assert.match(plan!, /Custom Scan \(Citus Adaptive\)[\s\S]*Task Count: 1\b/, `not delegated:\n${plan}`);
  });

  it('reads: feed, filters, search, charts, users', async () => {
    const reads = [
      `/api/events?project=${project}`,
      `/api/events?project=${project}&category=signup`,
      `/api/events?project=${project}&tag=plan:pro`,
      `/api/events?project=${project}&user_id=u1`,
      `/api/events?project=${project}&search=Paid`,
      `/api/events/${eventId}`,
      `/api/charts?project=${project}`,
      `/api/users?project=${project}`,
      `/api/users/u1?project=${project}`,
      `/api/insights?project=${project}`,
    ];
    for (const url of reads) {
      await assertRouted(`GET ${url}`, async () => assert.equal((await org.get(url)).status, 200));
    }
  });

  it('insights: create, update, increment', async () => {
    await assertRouted('POST /api/insight (create)', async () =>
      assert.equal((await org.post('/api/insight', { project, title: 'Users', value: 1 })).status, 200),
    );
    await assertRouted('POST /api/insight (update)', async () =>
      assert.equal((await org.post('/api/insight', { project, title: 'Users', value: 2 })).status, 200),
    );
    await assertRouted('PATCH /api/insight (increment)', async () => {
      const reply = await t.request({
        method: 'PATCH',
        url: '/api/insight',
        body: { project, title: 'Count', value: { $inc: 1 } },
        headers: { authorization: `Bearer ${org.key}` },
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    });
  });

  it('delete: an event', async () => {
    await assertRouted('POST /api/events/:id/delete', async () => assert.equal((await org.post(`/api/events/${eventId}/delete`)).status, 200));
  });

  it('breakdown by tag: registering and backfilling the key, ingest into it, reading it, a delete', async () => {
    await assertRouted('GET /api/charts?groupBy (registers, backfills)', async () => {
      assert.equal((await org.get(`/api/charts?project=${project}&groupBy=tag:plan`)).status, 200);
      await t.services.tagRollups.backfill(org.id, project, 'plan');
    });
    let id = 0;
    await assertRouted('POST /api/events (rolled-up key)', async () => {
      const reply = await org.post('/api/events', { project, category: 'signup', title: 'Two', tags: { plan: 'free' } });
      assert.equal(reply.status, 201);
      id = reply.body.id as number;
    });
    await assertRouted('GET /api/charts?groupBy (from the rollup)', async () => {
      assert.deepEqual(Object.keys((await org.get(`/api/charts?project=${project}&groupBy=tag:plan`)).body).sort(), ['(none)', 'free']);
    });
    await assertRouted('POST /api/events/:id/delete (rolled-up key)', async () => assert.equal((await org.post(`/api/events/${id}/delete`)).status, 200));
  });

  it('groups: a group call with a user, the list, a group, the feed and charts by group, a delete', async () => {
    await assertRouted('POST /api/group', async () => {
      const reply = await org.post('/api/group', { project, group_id: 'acme', user_id: 'u1', properties: { name: 'Acme' } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    });
    const reads = [
      `/api/groups?project=${project}`,
      `/api/groups?project=${project}&sort=users&search=acme`,
      `/api/groups/acme?project=${project}`,
      `/api/users/u1/groups?project=${project}`,
      `/api/events?project=${project}&group=acme`,
      `/api/events?project=${project}&group=acme&search=Paid`,
      `/api/charts?project=${project}&group=acme`,
    ];
    for (const url of reads) {
      await assertRouted(`GET ${url}`, async () => assert.equal((await org.get(url)).status, 200));
    }
    await assertRouted('DELETE /api/groups/:groupId', async () => {
      const reply = await t.request({ method: 'DELETE', url: `/api/groups/acme?project=${project}`, headers: { authorization: `Bearer ${org.key}` } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    });
  });

  it('funnels: steps by category, by tags, and a later step with both (read through the primary key)', async () => {
    const steps = [{ category: 'signup' }, { tags: { plan: 'free' } }, { category: 'signup', tags: { plan: 'free' } }];
    await assertRouted('POST /api/funnels', async () => assert.equal((await org.post('/api/funnels', { project, steps })).status, 200));
  });
});

describe('grouping bursts on Citus runs on one shard per destination', { skip: !onCitus && 'the store is not Citus' }, () => {
  it("a notify event joins its destination's open group: lock it, read the titles, extend it", async () => {
    const org = await t.org();
    const project = await org.project('Bursts');
    const created = await org.post(`/api/projects/${project}/destinations`, {
      name: 'Grouped',
      url: 'https://example.com/hook',
      format: 'text',
      groupWindowSeconds: 60,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const events: EventObject[] = [];
    for (const title of ['First', 'Second']) {
      const reply = await org.post('/api/events', { project, category: 'bursts', title });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      events.push(reply.body as EventObject);
    }
    const held = (event: EventObject) => ({
      organizationId: org.id,
      destinationId: created.body.id as string,
      format: 'text' as const,
      windowSeconds: 60,
      projectId: project,
      projectName: 'Bursts',
      events: [event],
      alertIds: [null],
    });
    const q = { now: new Date(), baseUrl: 'https://events.example.com', timeZone: 'UTC', maxAttempts: 3 };
    // The first event opens the group: the fan-out's batch insert writes it.
    await withTransaction(t.services.sql, async (tx) => {
      const opened = await holdInGroup(tx, held(events[0]!), q);
      assert.ok(opened, 'the first event opens a group');
      await insertDeliveries(tx, [opened]);
    });
    await assertRouted('grouping: an event joins the open group', () =>
      withTransaction(t.services.sql, async (tx) => assert.equal(await holdInGroup(tx, held(events[1]!), q), null)),
    );
  });
});

describe("the fan-out of an organization's notify events on Citus runs on its shard", { skip: !onCitus && 'the store is not Citus' }, () => {
  it('claim its outbox rows, read their events, destinations and audience (decision 233)', async () => {
    const org = await t.org();
    const project = await org.project('Fan-out');
    for (const title of ['One', 'Two']) {
      assert.equal((await org.post('/api/events', { project, category: 'paid', title, notify: true, user_id: 'u1' })).status, 201);
    }
    const q = { limit: 100, maxAttempts: 3, baseUrl: 'https://events.example.com', timeZone: 'UTC', organizationId: org.id };
    let taken = 0;
    await assertRouted('fan-out of one organization', async () => ({ taken } = await fanOutBatch(t.services.sql, q)));
    assert.equal(taken, 2);
  });
});

describe('the alert engine on Citus runs on one shard per organization', { skip: !onCitus && 'the store is not Citus' }, () => {
  it('create an alert, evaluate it through a transition, read its history', async () => {
    const org = await t.org();
    const project = await org.project('Alerts');
    let alertId = '';
    await assertRouted('POST /api/projects/:id/alerts', async () => {
      const reply = await org.post(`/api/projects/${project}/alerts`, {
        name: 'Errors',
        filter: { category: 'errors' },
        condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      alertId = reply.body.id as string;
    });
    assert.equal((await org.post('/api/events', { project, category: 'errors', title: 'boom' })).status, 201);
    // The engine's look for work visits every shard on purpose (once per interval); a pass is one organization's.
    await assertRouted('alert evaluation (a transition to firing)', () => evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone));
    assert.equal((await org.get(`/api/alerts/${alertId}`)).body.state, 'firing');
    await assertRouted('GET /api/alerts/:id/history', async () => assert.equal((await org.get(`/api/alerts/${alertId}/history`)).status, 200));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

async function count(org: TestOrg, project: string): Promise<number> {
  const page = await org.get(`/api/events?project=${project}&limit=100`);
  return page.body.events.length;
}

const withKey = (key: string) => ({ 'idempotency-key': key });

describe('Idempotency-Key on POST /api/events', () => {
  it('creates once and replays the first status and body to a repeat', async () => {
    const { org, project } = await setup();
    const body = { project, category: 'signups', title: 'Once', tags: { plan: 'pro' } };
    const first = await org.post('/api/events', body, withKey('abc-1'));
    assert.equal(first.status, 201);
    const again = await org.post('/api/events', body, withKey('abc-1'));
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    // The same body with its keys in another order is the same request.
    const reordered = await org.post('/api/events', { tags: { plan: 'pro' }, title: 'Once', category: 'signups', project }, withKey('abc-1'));
    assert.equal(reordered.status, 201);
    assert.deepEqual(reordered.body, first.body);
    assert.equal(await count(org, project), 1);
  });

  it('answers 409 to the same key with a different body, and creates nothing', async () => {
    const { org, project } = await setup();
    await org.post('/api/events', { project, category: 'c', title: 'A' }, withKey('k'));
    const other = await org.post('/api/events', { project, category: 'c', title: 'B' }, withKey('k'));
    assert.equal(other.status, 409);
    assert.match(other.body.error, /different request body/);
    assert.equal(await count(org, project), 1);
  });

  it('creates every time without the header', async () => {
    const { org, project } = await setup();
    const body = { project, category: 'c', title: 'A' };
    await org.post('/api/events', body);
    await org.post('/api/events', body);
    assert.equal(await count(org, project), 2);
  });

  it('refuses a key that is empty, too long or not printable ASCII with 400, creating nothing', async () => {
    const { org, project } = await setup();
    for (const key of ['', 'x'.repeat(256), 'tab\there']) {
      const reply = await org.post('/api/events', { project, category: 'c', title: 'A' }, withKey(key));
      assert.equal(reply.status, 400, key);
      assert.match(reply.body.error, /Idempotency-Key/);
    }
    const longest = await org.post('/api/events', { project, category: 'c', title: 'A' }, withKey(`~ ${'x'.repeat(253)}`));
    assert.equal(longest.status, 201);
    assert.equal(await count(org, project), 1);
  });

  it('does not remember a failed request: the key can be retried', async () => {
    const { org, project } = await setup();
    const failed = await org.post('/api/events', { project: 'nope', category: 'c', title: 'A' }, withKey('retry-me'));
    assert.equal(failed.status, 404);
    const invalid = await org.post('/api/events', { project, category: '', title: 'A' }, withKey('retry-me'));
    assert.equal(invalid.status, 400);
    const ok = await org.post('/api/events', { project, category: 'c', title: 'A' }, withKey('retry-me'));
    assert.equal(ok.status, 201);
    assert.equal(await count(org, project), 1);
  });

  it('keeps keys per organization', async () => {
    const a = await setup();
    const b = await setup();
    const first = await a.org.post('/api/events', { project: a.project, category: 'c', title: 'A' }, withKey('shared'));
    const second = await b.org.post('/api/events', { project: b.project, category: 'c', title: 'B' }, withKey('shared'));
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.title, 'B');
    assert.equal(await count(b.org, b.project), 1);
  });

  it('creates exactly one event for concurrent duplicates; the others answer as the first did or 409', async () => {
    const { org, project } = await setup();
    const body = { project, category: 'race', title: 'One' };
    const replies = await Promise.all(Array.from({ length: 20 }, () => org.post('/api/events', body, withKey('race'))));
    const created = replies.filter((reply) => reply.status === 201);
    assert.ok(created.length >= 1);
    for (const reply of replies) assert.ok(reply.status === 201 || reply.status === 409, String(reply.status));
    assert.equal(new Set(created.map((reply) => reply.body.id)).size, 1);
    assert.equal(await count(org, project), 1);
  });

  it('answers 409 while the first is in flight, and takes over a claim abandoned by a crash', async () => {
    const { org, project } = await setup();
    const body = { project, category: 'c', title: 'A' };
    const sql = t.services.sql;
    const claim = async (key: string, claimedAt: Date) => {
      const hash = (await import('node:crypto')).createHash('sha256');
      // The hash does not matter for these: a different body is refused before the in-flight check.
      await sql`INSERT INTO idempotency_keys (organization_id, route, key, request_hash, claim_token, claimed_at, created_at)
        VALUES (${org.id}, 'POST /api/events', ${key}, ${hash.update('x').digest()}, 'crashed', ${claimedAt}, ${claimedAt})`;
    };
    await claim('fresh', new Date());
    assert.equal((await org.post('/api/events', body, withKey('fresh'))).status, 409);
    await claim('abandoned', new Date(Date.now() - 60_000));
    const taken = await org.post('/api/events', body, withKey('abandoned'));
    assert.equal(taken.status, 201);
    assert.equal(await count(org, project), 1);
  });

  it('forgets a key after 24 hours', async () => {
    const { org, project } = await setup();
    const body = { project, category: 'c', title: 'A' };
    await org.post('/api/events', body, withKey('old'));
    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 1000);
    await t.services.sql`UPDATE idempotency_keys SET created_at = ${dayAgo}, claimed_at = ${dayAgo} WHERE organization_id = ${org.id}`;
    const again = await org.post('/api/events', { ...body, title: 'B' }, withKey('old'));
    assert.equal(again.status, 201);
    assert.equal(await count(org, project), 2);
  });
});

describe('Idempotency-Key on POST /v1/log', () => {
  it('logs once, replays the first reply, refuses another body with 409', async () => {
    const { org, project } = await setup();
    const body = { project, channel: 'payments', event: 'Paid', tags: { plan: 'pro' } };
    const first = await org.post('/v1/log', body, withKey('log-1'));
    assert.equal(first.status, 200);
    const again = await org.post('/v1/log', body, withKey('log-1'));
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    const other = await org.post('/v1/log', { ...body, event: 'Refunded' }, withKey('log-1'));
    assert.equal(other.status, 409);
    assert.equal(await count(org, project), 1);
  });

  it('keeps keys per route: the same key on POST /api/events is another request', async () => {
    const { org, project } = await setup();
    const logged = await org.post('/v1/log', { project, channel: 'c', event: 'A' }, withKey('shared'));
    const created = await org.post('/api/events', { project, category: 'c', title: 'A' }, withKey('shared'));
    assert.equal(logged.status, 200);
    assert.equal(created.status, 201);
    assert.notEqual(created.body.id, logged.body.id);
    assert.equal(await count(org, project), 2);
  });
});

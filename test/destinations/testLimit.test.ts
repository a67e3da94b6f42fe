import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { startReceiver } from './support.ts';

// Test is not a way to flood an address (extensions.md, "Destinations"): 10 an hour per
// destination, counted in the database, each one audited.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

describe('Test action limits', () => {
  it('allows 10 Tests an hour per destination, then 429 with Retry-After, and audits each', async (tc) => {
    const receiver = await startReceiver([200]);
    tc.after(() => receiver.close());
    const org = await t.org();
    const project = await org.project();
    const created = await org.post(`/api/projects/${project}/destinations`, { name: 'r', url: `${receiver.url}?token=s3cret`, format: 'text' });
    const other = await org.post(`/api/projects/${project}/destinations`, { name: 'r2', url: receiver.url, format: 'json' });
    const id = created.body.id as string;

    for (let i = 0; i < 10; i++) {
      const reply = await org.post(`/api/destinations/${id}/test`);
      assert.equal(reply.status, 200, `Test ${i + 1}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.ok, true);
    }
    const refused = await org.post(`/api/destinations/${id}/test`);
    assert.equal(refused.status, 429);
    assert.equal(typeof refused.body.error, 'string');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${refused.headers['retry-after']}`);
    assert.equal(receiver.received.length, 10, 'the refused Test sent nothing');

    // The limit is the destination's own: another one of the project still tests.
    assert.equal((await org.post(`/api/destinations/${other.body.id}/test`)).status, 200);

    const log = (await org.get(`/api/destinations/${id}/deliveries`)).body.deliveries as unknown[];
    assert.equal(log.length, 10, 'the refused Test left no delivery');
    const audit = (await org.get('/api/audit?limit=100')).body.entries as Array<{ action: string; target: { type: string; id: string } }>;
    const tests = audit.filter((entry) => entry.action === 'destination.test');
    assert.equal(tests.filter((entry) => entry.target.id === id).length, 10);
    assert.deepEqual(tests[0]?.target, { type: 'destination', id: other.body.id });
    assert.ok(!JSON.stringify(audit).includes('s3cret'), 'the audit log holds no credential');
  });

  it('counts concurrent Tests one after the other, failed ones too (the count lives in the database)', async (tc) => {
    const receiver = await startReceiver([500]);
    tc.after(() => receiver.close());
    const org = await t.org();
    const project = await org.project();
    const id = (await org.post(`/api/projects/${project}/destinations`, { name: 'r', url: receiver.url, format: 'embed' })).body.id as string;
    // Ten Tests that failed still count, and concurrent ones are counted one after the other.
    const replies = await Promise.all(Array.from({ length: 12 }, () => org.post(`/api/destinations/${id}/test`)));
    assert.deepEqual(replies.map((r) => r.status).sort(), [...Array(10).fill(200), 429, 429]);
    const another = await org.post(`/api/destinations/${id}/test`);
    assert.equal(another.status, 429);
  });

  it("a Test of another organization's destination is a 404 and counts nothing", async () => {
    const owner = await t.org();
    const stranger = await t.org();
    const project = await owner.project();
    const id = (await owner.post(`/api/projects/${project}/destinations`, { name: 'r', url: 'http://127.0.0.1:9/x', format: 'json' })).body.id as string;
    assert.equal((await stranger.post(`/api/destinations/${id}/test`)).status, 404);
    assert.equal((await owner.get(`/api/destinations/${id}/deliveries`)).body.deliveries.length, 0);
  });
});

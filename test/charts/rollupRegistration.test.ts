// Only a caller that may change the organization registers a tag key for the rollup (decision
// 200): a read-only key cannot fill a project's MAX_ROLLED_UP_KEYS slots for good.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ROLLED_UP_KEYS } from '../../src/features/charts/tagRollupReady.ts';
import { signInAs } from '../signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

async function rolledUpKeys(org: TestOrg, project: string): Promise<string[]> {
  const rows = await t.services.sql<{ tagKey: string }[]>`
    SELECT tag_key AS "tagKey" FROM tag_rollup_keys WHERE organization_id = ${org.id} AND project_id = ${project} ORDER BY tag_key`;
  return rows.map((row) => row.tagKey);
}

describe('tag rollup registration', () => {
  it('a read-only key charts by any tag but registers none; a full key registers', async () => {
    const org = await t.org();
    const project = await org.project();
    const owner = await signInAs(t, org);
    const made = await owner.post('/api/keys', { name: 'reader', access: 'read' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const reader = { authorization: `Bearer ${made.body.key}` };
    assert.equal((await org.post('/api/events', { project, category: 'orders', title: 'Order', tags: { plan: 'pro', k0: 'x' } })).status, 201);

    for (let i = 0; i <= MAX_ROLLED_UP_KEYS; i++) {
      const reply = await org.get(`/api/charts?project=${project}&groupBy=tag:k${i}`, reader);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    }
    const read = await org.get(`/api/charts?project=${project}&groupBy=tag:plan`, reader);
    assert.deepEqual(Object.keys(read.body), ['pro'], 'the answer read from the events');
    assert.deepEqual(await rolledUpKeys(org, project), [], 'the read-only key registered nothing');

    const full = await org.get(`/api/charts?project=${project}&groupBy=tag:plan`);
    assert.equal(full.status, 200);
    assert.deepEqual(Object.keys(full.body), ['pro']);
    assert.deepEqual(await rolledUpKeys(org, project), ['plan'], 'a full key registers the key it charts by');
  });
});

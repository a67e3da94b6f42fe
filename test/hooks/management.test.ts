import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';

const t = useTestApp({ BASE_URL: 'https://events.example.com/' });

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

describe('incoming hooks management', () => {
  it('creates a hook whose URL carries a whk_ token of at least 128 bits', async () => {
    const { org, project } = await setup();
    const reply = await org.post(`/api/projects/${project}/hooks`, { name: ' CI ', category: 'deploys' });
    assert.equal(reply.status, 201);
    assert.deepEqual(Object.keys(reply.body), ['id', 'projectId', 'name', 'category', 'enabled', 'template', 'url', 'createdAt']);
    assert.equal(reply.body.projectId, project);
    assert.equal(reply.body.name, 'CI');
    assert.equal(reply.body.category, 'deploys');
    assert.equal(reply.body.enabled, true);
    assert.match(reply.body.url, /^https:\/\/events\.example\.com\/hook\/whk_[a-z0-9]{32}$/);
    assert.match(reply.body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // 32 characters of a 36-letter alphabet: log2(36^32) ≈ 165 bits.
    assert.ok(32 * Math.log2(36) >= 128);

    const second = await org.post(`/api/projects/${project}/hooks`, { name: 'Other', category: 'misc' });
    assert.notEqual(second.body.url, reply.body.url);
    const list = await org.get(`/api/projects/${project}/hooks`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [reply.body, second.body], 'the URL stays visible');
  });

  it('stores only a hash and a sealed copy of the token', async () => {
    const { org, project } = await setup();
    const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'n', category: 'c' })).body;
    const token = hook.url.split('/hook/')[1];
    const [row] = await t.services.sql`
      SELECT to_jsonb(h)::text AS text FROM incoming_hooks h WHERE organization_id = ${org.id} AND id = ${hook.id}`;
    assert.ok(row);
    assert.ok(!String(row.text).includes(token));
    assert.ok(!String(row.text).includes(token.slice(4)));
    // Its routing row holds the same hash.
    const [stored] = await t.services.sql<{ hash: Buffer }[]>`
      SELECT token_hash AS hash FROM incoming_hooks WHERE organization_id = ${org.id} AND id = ${hook.id}`;
    const routes = await t.services.sql`
      SELECT kind FROM credentials WHERE hash = ${stored!.hash} AND organization_id = ${org.id}`;
    assert.deepEqual([...routes], [{ kind: 'hook' }]);
  });

  it('pauses, resumes and deletes', async () => {
    const { org, project } = await setup();
    const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'n', category: 'c' })).body;
    const paused = await org.post(`/api/hooks/${hook.id}/pause`);
    assert.equal(paused.status, 200);
    assert.deepEqual(paused.body, { ...hook, enabled: false });
    const resumed = await org.post(`/api/hooks/${hook.id}/resume`);
    assert.deepEqual(resumed.body, hook);
    const deleted = await org.post(`/api/hooks/${hook.id}/delete`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { id: hook.id, deleted: true });
    assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, []);
    const routes = await t.services.sql`SELECT 1 FROM credentials WHERE kind = 'hook' AND organization_id = ${org.id}`;
    assert.equal(routes.length, 0, 'the routing row goes with the hook');
    assert.equal((await org.post(`/api/hooks/${hook.id}/pause`)).status, 404);
  });

  it('answers 404 for another organization and changes nothing', async () => {
    const { org, project } = await setup();
    const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'n', category: 'c' })).body;
    const stranger = await t.org();
    assert.equal((await stranger.get(`/api/projects/${project}/hooks`)).status, 404);
    assert.equal((await stranger.post(`/api/projects/${project}/hooks`, { name: 'x', category: 'y' })).status, 404);
    for (const action of ['pause', 'resume', 'delete']) {
      const reply = await stranger.post(`/api/hooks/${hook.id}/${action}`);
      assert.equal(reply.status, 404, action);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, [hook]);
  });

  for (const [label, body] of [
    ['missing name', { category: 'c' }],
    ['blank name', { name: ' ', category: 'c' }],
    ['missing category', { name: 'n' }],
    ['blank category', { name: 'n', category: '  ' }],
    ['over-long category', { name: 'n', category: 'x'.repeat(101) }],
    ['numeric name', { name: 5, category: 'c' }],
  ] as const) {
    it(`refuses ${label} with 400 and creates nothing`, async () => {
      const { org, project } = await setup();
      const reply = await org.post(`/api/projects/${project}/hooks`, body);
      assert.equal(reply.status, 400);
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, []);
    });
  }

  it('counts the category limit in characters, not UTF-16 units', async () => {
    const { org, project } = await setup();
    assert.equal((await org.post(`/api/projects/${project}/hooks`, { name: 'n', category: '👍'.repeat(100) })).status, 201);
  });

  it('works from a dashboard session', async () => {
    const { org, project } = await setup();
    const browser = await signInAs(t, org);
    const created = await browser.post(`/api/projects/${project}/hooks`, { name: 'n', category: 'c' });
    assert.equal(created.status, 201);
    assert.deepEqual((await browser.get(`/api/projects/${project}/hooks`)).body, [created.body]);
  });
});

// Long path parameters follow the documented limits (extensions.md, "Users"): a user id of 255
// characters, however it is URL-encoded, reaches GET /api/users/:userId; a longer one is the
// contract's 404 (an event may carry it, but it makes no user), never the router's 414.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

describe('long user ids in the path', () => {
  for (const [name, unit] of [
    ['ASCII', 'u'],
    ['emoji (12 characters each once encoded)', '😀'],
  ] as const) {
    it(`a 255-character ${name} user id resolves; 256 characters is 404`, async () => {
      const org = await t.org();
      const project = await org.project();
      const longest = unit.repeat(255);
      const tooLong = unit.repeat(256);
      assert.equal((await org.post('/api/events', { project, category: 'c', title: 'one', user_id: longest })).status, 201);
      assert.equal((await org.post('/api/events', { project, category: 'c', title: 'two', user_id: tooLong })).status, 201);
      const found = await org.get(`/api/users/${encodeURIComponent(longest)}?project=${project}`);
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.equal(found.body.userId, longest);
      assert.equal(found.body.eventCount, 1);
      const missing = await org.get(`/api/users/${encodeURIComponent(tooLong)}?project=${project}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(Object.keys(missing.body), ['error']);
    });
  }

  it('a user id of 5,000 characters is 404 {error}, not 414', async () => {
    const org = await t.org();
    const project = await org.project();
    const reply = await org.get(`/api/users/${'x'.repeat(5000)}?project=${project}`);
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('identify takes a 255-character user id and the profile reads it back', async () => {
    const org = await t.org();
    const project = await org.project();
    const userId = 'é'.repeat(255);
    assert.equal((await org.post('/api/identify', { project, user_id: userId, properties: { name: 'Long' } })).status, 200);
    const found = await org.get(`/api/users/${encodeURIComponent(userId)}?project=${project}`);
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.properties, { name: 'Long' });
  });
});

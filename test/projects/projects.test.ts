import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

describe('projects', () => {
  it('creates a project with a trimmed name and a 12-character id', async () => {
    const org = await t.org();
    const created = await org.post('/api/projects', { name: '  Web shop  ' });
    assert.equal(created.status, 201);
    assert.match(created.body.id, /^[a-z0-9]{12}$/);
    assert.deepEqual(created.body, { id: created.body.id, name: 'Web shop' });
    assert.match(String(created.headers['content-type']), /^application\/json/);
  });

  it('lists only the caller organization projects', async () => {
    const [mine, theirs] = [await t.org(), await t.org()];
    const id = await mine.project('Mine');
    await theirs.project('Theirs');
    const listed = await mine.get('/api/projects');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.length, 1);
    assert.equal(listed.body[0].id, id);
    assert.equal(listed.body[0].organizationId, mine.id);
    assert.match(listed.body[0].createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  for (const [label, body] of [
    ['missing name', {}],
    ['empty name', { name: '' }],
    ['blank name', { name: '   ' }],
    ['numeric name', { name: 42 }],
    ['null name', { name: null }],
    ['array body', [1]],
  ] as const) {
    it(`refuses ${label} with 400 and creates nothing`, async () => {
      const org = await t.org();
      const reply = await org.post('/api/projects', body);
      assert.equal(reply.status, 400);
      assert.equal(typeof reply.body.error, 'string');
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.deepEqual((await org.get('/api/projects')).body, []);
    });
  }

  it('answers malformed JSON with 400 {error}', async () => {
    const org = await t.org();
    const reply = await t.request({
      method: 'POST',
      url: '/api/projects',
      payload: '{"name":',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });
});

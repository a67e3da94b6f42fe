import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

describe('errors and request ids', () => {
  it('answers every request with its own x-request-id, errors included', async () => {
    const org = await t.org();
    const ok = await org.get('/api/projects');
    const missing = await org.get('/api/projects/nosuchproject/hooks');
    const invalid = await org.post('/api/projects', { name: '' });
    const ids = [ok, missing, invalid].map((reply) => String(reply.headers['x-request-id'] ?? ''));
    for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(new Set(ids).size, 3);
  });

  it('keeps the wire to one field: {error}', async () => {
    const org = await t.org();
    const missing = await org.get('/api/projects/nosuchproject/hooks');
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body), ['error']);
    const invalid = await org.post('/api/projects', { name: '' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys(invalid.body), ['error']);
  });
});

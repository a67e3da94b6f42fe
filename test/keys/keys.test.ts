import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';

const t = useTestApp();
const KEY = /^ev_[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}$/;
const NEEDS_SESSION = 'Managing API keys needs a dashboard session';

describe('API keys from the dashboard', () => {
  it('creates a key whose plaintext is shown once and works as a bearer key', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const created = await browser.post('/api/keys');
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['access', 'id', 'key', 'name', 'origins', 'prefix', 'projects']);
    assert.equal(created.body.name, null);
    assert.match(created.body.key, KEY);
    assert.equal(created.body.prefix, created.body.key.slice(0, 12));

    const listed = await browser.get('/api/keys');
    assert.equal(listed.status, 200);
    const entry = listed.body.find((k: { id: string }) => k.id === created.body.id);
    assert.deepEqual(Object.keys(entry).sort(), ['access', 'createdAt', 'id', 'lastUsedAt', 'name', 'origins', 'prefix', 'projects', 'revokedAt']);
    assert.equal(entry.name, null);
    assert.equal(entry.prefix, created.body.prefix);
    assert.equal(entry.revokedAt, null);
    assert.ok(!JSON.stringify(listed.body).includes(created.body.key), 'the list never shows a plaintext key');

    const byKey = await t.request({ method: 'GET', url: '/api/projects', headers: { authorization: `Bearer ${created.body.key}` } });
    assert.equal(byKey.status, 200);
  });

  it('names a key on create, trimmed, and lists it with that name', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const created = await browser.post('/api/keys', { name: '  CI deploys  ' });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'CI deploys');
    const longest = 'é'.repeat(100);
    assert.equal((await browser.post('/api/keys', { name: longest })).body.name, longest);
    assert.equal((await browser.post('/api/keys', { name: null })).body.name, null);
    assert.equal((await browser.post('/api/keys', {})).body.name, null);
    const listed = await browser.get('/api/keys');
    assert.equal(listed.body.find((k: { id: string }) => k.id === created.body.id).name, 'CI deploys');
  });

  it('refuses an empty, blank, too long or non-text name with 400 {error}, creating nothing', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    for (const name of ['', '   ', 'x'.repeat(101), 42, ['a']]) {
      const reply = await browser.post('/api/keys', { name });
      assert.equal(reply.status, 400, JSON.stringify(name));
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.match((await browser.post('/api/keys', { name: ' ' })).body.error, /name must be 1 to 100 characters/);
    assert.equal((await browser.post('/api/keys', { name: 'x', extra: 1 })).status, 400);
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM api_keys WHERE organization_id = ${org.id}`;
    assert.equal(row!.n, 1, 'only the fixture key exists');
  });

  it("lists only the organization's own keys, newest first", async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    await (await t.org()).get('/api/projects');
    const created = await browser.post('/api/keys');
    const listed = await browser.get('/api/keys');
    assert.deepEqual(
      listed.body.map((k: { id: string }) => k.id),
      [created.body.id, org.keyId],
    );
  });

  it('revokes a key: it then fails authentication like an unknown key', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const created = await browser.post('/api/keys');
    const bearer = { authorization: `Bearer ${created.body.key}` };
    assert.equal((await t.request({ method: 'GET', url: '/api/projects', headers: bearer })).status, 200);

    const revoked = await browser.post(`/api/keys/${created.body.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.id, created.body.id);
    assert.match(revoked.body.revokedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal((await t.request({ method: 'GET', url: '/api/projects', headers: bearer })).status, 401);

    const listed = await browser.get('/api/keys');
    assert.equal(listed.body.find((k: { id: string }) => k.id === created.body.id).revokedAt, revoked.body.revokedAt);
    const again = await browser.post(`/api/keys/${created.body.id}/revoke`);
    assert.equal(again.status, 200);
    assert.equal(again.body.revokedAt, revoked.body.revokedAt);
  });

  it("answers 404 for another organization's key, and leaves it working", async () => {
    const [mine, theirs] = [await t.org(), await t.org()];
    const browser = await signInAs(t, mine);
    const reply = await browser.post(`/api/keys/${theirs.keyId}/revoke`);
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    assert.equal((await browser.post('/api/keys/nonexistent/revoke')).status, 404);
    assert.equal((await theirs.get('/api/projects')).status, 200);
  });

  it('refuses all three to a bearer key with 403, so a leaked key cannot mint keys', async () => {
    const org = await t.org();
    for (const reply of [await org.get('/api/keys'), await org.post('/api/keys'), await org.post(`/api/keys/${org.keyId}/revoke`)]) {
      assert.equal(reply.status, 403);
      assert.deepEqual(reply.body, { error: NEEDS_SESSION });
    }
    const [row] = await t.services.sql`SELECT count(*)::int AS n FROM api_keys WHERE organization_id = ${org.id}`;
    assert.equal(row!.n, 1);
    assert.equal((await org.get('/api/projects')).status, 200);
  });

  it('needs the CSRF token to create or revoke, and a session or key at all', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    assert.equal((await browser.post('/api/keys', undefined, { csrf: null })).status, 403);
    assert.equal((await browser.post(`/api/keys/${org.keyId}/revoke`, undefined, { csrf: 'forged' })).status, 403);
    assert.equal((await org.get('/api/projects')).status, 200);
    assert.equal((await t.request({ method: 'GET', url: '/api/keys' })).status, 401);
    assert.equal((await t.request({ method: 'POST', url: '/api/keys' })).status, 401);
  });

  it('shows the keys pages in the OpenAPI document as session-only', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).body;
    for (const [path, method] of [
      ['/api/keys', 'get'],
      ['/api/keys', 'post'],
      ['/api/keys/{keyId}/revoke', 'post'],
    ] as const) {
      assert.deepEqual(doc.paths[path][method].security, [{ session: [] }], `${method} ${path}`);
    }
    for (const path of ['/api/setup', '/api/session', '/api/session/delete']) assert.ok(doc.paths[path], path);
  });
});

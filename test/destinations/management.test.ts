import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';

const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function setup(): Promise<{ org: TestOrg; project: string }> {
  const org = await t.org();
  return { org, project: await org.project() };
}

describe('destinations management', () => {
  it('creates json, text and embed destinations with the documented shape', async () => {
    const { org, project } = await setup();
    const json = await org.post(`/api/projects/${project}/destinations`, { name: ' Backend ', url: 'https://example.com/in', format: 'json' });
    assert.equal(json.status, 201);
    assert.deepEqual(Object.keys(json.body), [
      'id',
      'projectId',
      'name',
      'url',
      'format',
      'enabled',
      'secret',
      'lastStatus',
      'categories',
      'disabledReason',
      'groupWindowSeconds',
      'createdAt',
    ]);
    assert.equal(json.body.projectId, project);
    assert.equal(json.body.name, 'Backend');
    assert.equal(json.body.url, 'https://example.com/in');
    assert.equal(json.body.enabled, true);
    assert.equal(json.body.lastStatus, null);
    assert.equal(json.body.categories, null);
    assert.equal(json.body.disabledReason, null);
    assert.match(json.body.createdAt, ISO);
    assert.match(json.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    const secretBytes = Buffer.from(json.body.secret.slice(6), 'base64').length;
    assert.ok(secretBytes >= 24 && secretBytes <= 64);

    const text = await org.post(`/api/projects/${project}/destinations`, { name: 'Slack', url: 'https://hooks.slack.com/x', format: 'text', enabled: false });
    assert.equal(text.status, 201);
    assert.equal(text.body.secret, null);
    assert.equal(text.body.enabled, false);
    const embed = await org.post(`/api/projects/${project}/destinations`, { name: 'Discord', url: 'http://discord.example/x', format: 'embed' });
    assert.equal(embed.body.secret, null);

    const list = await org.get(`/api/projects/${project}/destinations`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((d: { id: string }) => d.id),
      [json.body.id, text.body.id, embed.body.id],
    );
    assert.deepEqual(list.body[0], json.body);
  });

  it('enables, disables, rotates the secret and deletes', async () => {
    const { org, project } = await setup();
    const created = (await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/', format: 'json' })).body;
    const disabled = await org.post(`/api/destinations/${created.id}/disable`);
    assert.equal(disabled.status, 200);
    assert.deepEqual(disabled.body, { ...created, enabled: false });
    const enabled = await org.post(`/api/destinations/${created.id}/enable`);
    assert.deepEqual(enabled.body, { ...created, enabled: true });
    const rotated = await org.post(`/api/destinations/${created.id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, created.secret);
    assert.deepEqual({ ...rotated.body, secret: created.secret }, created);
    const deleted = await org.post(`/api/destinations/${created.id}/delete`);
    assert.deepEqual(deleted.body, { id: created.id, deleted: true });
    assert.deepEqual((await org.get(`/api/projects/${project}/destinations`)).body, []);
    assert.equal((await org.post(`/api/destinations/${created.id}/delete`)).status, 404);
  });

  it('refuses to rotate the secret of an unsigned format', async () => {
    const { org, project } = await setup();
    const created = (await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/', format: 'text' })).body;
    const reply = await org.post(`/api/destinations/${created.id}/rotate-secret`);
    assert.equal(reply.status, 400);
    assert.deepEqual(Object.keys(reply.body), ['error']);
  });

  it('answers 404 for another organization, and changes nothing', async () => {
    const { org, project } = await setup();
    const created = (await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/', format: 'json' })).body;
    const stranger = await t.org();
    assert.equal((await stranger.get(`/api/projects/${project}/destinations`)).status, 404);
    assert.equal((await stranger.post(`/api/projects/${project}/destinations`, { name: 'x', url: 'https://e.com/', format: 'json' })).status, 404);
    for (const action of ['enable', 'disable', 'rotate-secret', 'test', 'delete']) {
      const reply = await stranger.post(`/api/destinations/${created.id}/${action}`);
      assert.equal(reply.status, 404, action);
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    assert.deepEqual((await org.get(`/api/projects/${project}/destinations`)).body, [created]);
    assert.equal((await org.get('/api/projects/nosuchproject/destinations')).status, 404);
  });

  for (const [label, body] of [
    ['missing name', { url: 'https://example.com/', format: 'json' }],
    ['blank name', { name: '  ', url: 'https://example.com/', format: 'json' }],
    ['missing url', { name: 'n', format: 'json' }],
    ['relative url', { name: 'n', url: '/hook', format: 'json' }],
    ['ftp url', { name: 'n', url: 'ftp://example.com/', format: 'json' }],
    ['javascript url', { name: 'n', url: 'javascript:alert(1)', format: 'json' }],
    ['unknown format', { name: 'n', url: 'https://example.com/', format: 'xml' }],
    ['missing format', { name: 'n', url: 'https://example.com/' }],
    ['enabled as text', { name: 'n', url: 'https://example.com/', format: 'json', enabled: 'yes' }],
    ['over-long url', { name: 'n', url: `https://example.com/${'a'.repeat(2100)}`, format: 'json' }],
  ] as const) {
    it(`refuses ${label} with 400 and creates nothing`, async () => {
      const { org, project } = await setup();
      const reply = await org.post(`/api/projects/${project}/destinations`, body);
      assert.equal(reply.status, 400);
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.deepEqual((await org.get(`/api/projects/${project}/destinations`)).body, []);
    });
  }

  it('works from a dashboard session too', async () => {
    const { org, project } = await setup();
    const browser = await signInAs(t, org);
    const created = await browser.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/', format: 'embed' });
    assert.equal(created.status, 201);
    assert.equal((await browser.get(`/api/projects/${project}/destinations`)).body.length, 1);
  });

  it('needs authentication', async () => {
    const { org, project } = await setup();
    const created = (await org.post(`/api/projects/${project}/destinations`, { name: 'd', url: 'https://example.com/', format: 'json' })).body;
    assert.equal((await t.request({ method: 'GET', url: `/api/projects/${project}/destinations` })).status, 401);
    assert.equal((await t.request({ method: 'POST', url: `/api/destinations/${created.id}/test` })).status, 401);
    assert.equal((await t.request({ method: 'GET', url: `/api/destinations/${created.id}/deliveries` })).status, 401);
  });
});

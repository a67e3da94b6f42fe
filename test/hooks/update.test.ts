// PATCH /api/hooks/:hookId: renaming a hook, or changing its default category or template, keeps
// its URL; each field is checked as at creation; another organization's hook is 404.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';

const t = useTestApp();

async function setup(): Promise<{ org: TestOrg; project: string; hook: Record<string, unknown> & { id: string; url: string } }> {
  const org = await t.org();
  const project = await org.project();
  const hook = (await org.post(`/api/projects/${project}/hooks`, { name: 'CI', category: 'deploys' })).body;
  return { org, project, hook };
}

const patchAs = (org: TestOrg, hookId: string, body: unknown) =>
  t.request({ method: 'PATCH', url: `/api/hooks/${encodeURIComponent(hookId)}`, body, headers: { authorization: `Bearer ${org.key}` } });

describe('updating an incoming hook', () => {
  it('renames it (trimmed), keeping its URL, category and template, and records hook.update', async () => {
    const { org, project, hook } = await setup();
    const reply = await patchAs(org, hook.id, { name: '  Stripe payments ' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { ...hook, name: 'Stripe payments' });
    assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, [reply.body]);
    const audit = (await org.get('/api/audit?limit=5')).body.entries as Array<{ action: string; target: unknown }>;
    assert.deepEqual(audit[0], { ...audit[0], action: 'hook.update', target: { type: 'hook', id: hook.id } });
  });

  it("changes the default category and template, and the hook's next event uses them at once", async () => {
    const { org, project, hook } = await setup();
    const path = new URL(hook.url).pathname;
    // The token is cached by its first use: the change must evict it.
    assert.equal((await t.request({ method: 'POST', url: path, payload: 'Before' })).status, 201);
    const changed = await patchAs(org, hook.id, { category: 'payments', template: 'github' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.category, 'payments');
    assert.equal(changed.body.template, 'github');
    const cleared = await patchAs(org, hook.id, { template: null });
    assert.deepEqual(cleared.body, { ...changed.body, template: null });
    assert.equal((await t.request({ method: 'POST', url: path, payload: 'After' })).status, 201);
    const events = (await org.get(`/api/events?project=${project}`)).body.events as Array<{ title: string; category: string }>;
    assert.deepEqual(
      events.map((e) => [e.title, e.category]),
      [
        ['After', 'payments'],
        ['Before', 'deploys'],
      ],
    );
  });

  for (const [label, body] of [
    ['an empty body', {}],
    ['a blank name', { name: '  ' }],
    ['a name over 200 characters', { name: 'x'.repeat(201) }],
    ['a numeric name', { name: 5 }],
    ['a blank category', { category: ' ' }],
    ['a category over 100 characters', { category: 'x'.repeat(101) }],
    ['an unknown template', { template: 'jira' }],
    ['an unknown field', { url: 'https://example.com' }],
  ] as const) {
    it(`refuses ${label} with 400 {error} and changes nothing`, async () => {
      const { org, project, hook } = await setup();
      const reply = await patchAs(org, hook.id, body);
      assert.equal(reply.status, 400);
      assert.deepEqual(Object.keys(reply.body), ['error']);
      assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, [hook]);
    });
  }

  it("answers 404 for another organization's hook and for an unknown one, changing nothing", async () => {
    const { org, project, hook } = await setup();
    const stranger = await t.org();
    const reply = await patchAs(stranger, hook.id, { name: 'Taken' });
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body), ['error']);
    assert.equal((await patchAs(org, 'nohook', { name: 'x' })).status, 404);
    assert.deepEqual((await org.get(`/api/projects/${project}/hooks`)).body, [hook]);
  });

  it('works from a dashboard session', async () => {
    const { org, hook } = await setup();
    const browser = await signInAs(t, org);
    const reply = await t.request({
      method: 'PATCH',
      url: `/api/hooks/${hook.id}`,
      body: { name: 'Renamed' },
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.name, 'Renamed');
  });
});

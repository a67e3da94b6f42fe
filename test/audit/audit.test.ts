import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditPruner } from '../../src/features/audit/auditPruner.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { createLogger } from '../../src/logger.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { PASSWORD, signInAs } from '../signedIn.ts';

/** extensions.md, "Audit log". */
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; label: string | null } | null;
  action: string;
  target: { type: string; id: string } | null;
  ip: string | null;
}

async function entriesOf(org: TestOrg): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor = '';
  for (;;) {
    const page = await org.get(`/api/audit?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    all.push(...page.body.entries);
    if (!page.body.nextCursor) return all;
    cursor = page.body.nextCursor;
  }
}

const actions = (entries: Entry[]) => entries.map((e) => e.action).reverse();

describe('the audit log', () => {
  it('records what a key does, with its name or prefix, newest first', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const named = await owner.post('/api/keys', { name: 'deployer' });
    const key = named.body.key as string;
    const as = (method: 'POST' | 'PATCH', url: string, body?: unknown) =>
      t.request({ method, url, ...(body === undefined ? {} : { body }), headers: { authorization: `Bearer ${key}` } });
    const project = (await as('POST', '/api/projects', { name: 'p' })).body.id;
    await as('PATCH', `/api/projects/${project}`, { name: 'renamed' });
    const hook = (await as('POST', `/api/projects/${project}/hooks`, { name: 'h', category: 'c' })).body.id;
    await as('POST', `/api/hooks/${hook}/pause`);
    await as('POST', `/api/hooks/${hook}/delete`);
    const destination = (await as('POST', `/api/projects/${project}/destinations`, { name: 'd', url: 'http://127.0.0.1:9/x', format: 'json' })).body.id;
    await as('PATCH', `/api/destinations/${destination}`, { name: 'd2' });
    await as('POST', `/api/destinations/${destination}/rotate-secret`);
    await as('POST', `/api/destinations/${destination}/delete`);
    const alert = (await as('POST', `/api/projects/${project}/alerts`, { name: 'a', condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } })).body
      .id;
    await as('PATCH', `/api/alerts/${alert}`, { name: 'a2' });
    await as('POST', `/api/alerts/${alert}/mute`, { until: null });
    await as('POST', `/api/alerts/${alert}/delete`);
    await as('POST', '/api/events', { project, category: 'c', title: 'not audited' });
    await as('POST', `/api/projects/${project}/delete`);
    assert.equal((await t.request({ method: 'GET', url: '/api/export', headers: { authorization: `Bearer ${key}` } })).status, 200);
    assert.equal((await as('POST', '/api/import', { version: 1, projects: [{ name: 'imported' }] })).status, 200);

    const entries = await entriesOf(org);
    const byKey = entries.filter((e) => e.actor?.kind === 'key' && e.actor.id === named.body.id);
    assert.deepEqual(actions(byKey), [
      'project.create',
      'project.update',
      'hook.create',
      'hook.update',
      'hook.delete',
      'destination.create',
      'destination.update',
      'destination.rotate_secret',
      'destination.delete',
      'alert.create',
      'alert.update',
      'alert.update',
      'alert.delete',
      'project.delete',
      'export',
      'import',
    ]);
    for (const entry of byKey) {
      assert.deepEqual(Object.keys(entry).sort(), ['action', 'actor', 'at', 'id', 'ip', 'target']);
      assert.equal(entry.actor!.label, 'deployer');
      assert.equal(entry.ip, '127.0.0.1');
    }
    assert.deepEqual(byKey.find((e) => e.action === 'project.delete')!.target, { type: 'project', id: project });
    assert.equal(byKey.find((e) => e.action === 'import')!.target, null);
    const created = entries.find((e) => e.action === 'key.create' && e.target?.id === named.body.id)!;
    assert.deepEqual(created.actor, { kind: 'user', id: owner.userId, label: owner.email });
    // t.org() made its key as the command line does.
    assert.deepEqual(entries.find((e) => e.target?.id === org.keyId)!.actor, { kind: 'operator', id: null, label: null });
    const times = entries.map((e) => Date.parse(e.at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );

    const unnamed = await createKey({ ctx: org.ctx, input: undefined });
    await t.request({ method: 'POST', url: '/api/projects', body: { name: 'q' }, headers: { authorization: `Bearer ${unnamed.key}` } });
    assert.equal((await entriesOf(org)).find((e) => e.actor?.id === unnamed.id)!.actor!.label, unnamed.prefix);
  });

  it('records members and sign-ins; a failed action leaves no entry', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const invited = await owner.post('/api/invitations', { email: `new-${Date.now()}@example.com`, role: 'member' });
    const token = String(invited.body.url).split('/').at(-1);
    const joined = await t.request({ method: 'POST', url: '/api/invitations/accept', body: { token, password: PASSWORD } });
    assert.equal(joined.status, 200);
    const memberId = joined.body.user.id;
    await owner.post(`/api/members/${memberId}/role`, { role: 'owner' });
    await owner.post(`/api/members/${memberId}/role`, { role: 'member' });
    const wrong = await t.request({ method: 'POST', url: '/api/session', body: { email: owner.email, password: 'not the password' } });
    assert.equal(wrong.status, 401);
    await owner.post(`/api/members/${memberId}/delete`);
    // Refused actions: the last owner cannot go; an existing member cannot be invited.
    assert.equal((await owner.post(`/api/members/${owner.userId}/delete`)).status, 400);
    assert.equal((await owner.post('/api/invitations', { email: owner.email, role: 'member' })).status, 409);
    assert.equal((await owner.post('/api/keys/nope/revoke')).status, 404);

    const entries = await entriesOf(org);
    assert.deepEqual(
      actions(entries).filter((a) => a !== 'key.create'),
      ['session.signin', 'member.invite', 'member.join', 'member.role', 'member.role', 'session.signin_failed', 'member.remove'],
    );
    const failed = entries.find((e) => e.action === 'session.signin_failed')!;
    assert.equal(failed.actor, null);
    assert.deepEqual(failed.target, { type: 'member', id: owner.userId });
    const join = entries.find((e) => e.action === 'member.join')!;
    assert.equal(join.actor!.id, memberId);
    assert.deepEqual(entries.find((e) => e.action === 'member.remove')!.target, { type: 'member', id: memberId });

    const revoked = await owner.post('/api/keys');
    await owner.post(`/api/keys/${revoked.body.id}/revoke`);
    await owner.post(`/api/keys/${revoked.body.id}/revoke`);
    assert.equal((await entriesOf(org)).filter((e) => e.action === 'key.revoke').length, 1, 'a second revoke is no new action');
  });

  it('is read by an owner or a full key; everyone else gets 403', async () => {
    const org = await t.org();
    const project = await org.project();
    const owner = await signInAs(t, org);
    assert.equal((await owner.get('/api/audit')).status, 200);
    assert.equal((await org.get('/api/audit')).status, 200);
    const member = await signInAs(t, org);
    await owner.post(`/api/members/${member.userId}/role`, { role: 'member' });
    assert.equal((await member.get('/api/audit')).status, 403);
    for (const input of [{ access: 'read' as const }, { access: 'ingest' as const }, { projects: [project] }]) {
      const { key } = await createKey({ ctx: org.ctx, input });
      const reply = await t.request({ method: 'GET', url: '/api/audit', headers: { authorization: `Bearer ${key}` } });
      assert.equal(reply.status, 403, JSON.stringify(input));
    }
    const other = await t.org();
    assert.equal(
      (await other.get('/api/audit')).body.entries.some((e: Entry) => e.target?.id === project),
      false,
    );
  });

  it('pages by keyset, checks limit and cursor, and filters by action and actor', async () => {
    const org = await t.org();
    for (let i = 0; i < 5; i++) await org.project(`p${i}`);
    const first = await org.get('/api/audit?limit=2');
    assert.equal(first.body.entries.length, 2);
    const second = await org.get(`/api/audit?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.equal(second.body.entries.length, 2);
    assert.equal(new Set([...first.body.entries, ...second.body.entries].map((e: Entry) => e.id)).size, 4);
    assert.equal((await org.get('/api/audit')).body.entries.length, 6);
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'cursor=garbage']) assert.equal((await org.get(`/api/audit?${query}`)).status, 400, query);
    assert.equal((await org.get('/api/audit?action=project.create')).body.entries.length, 5);
    assert.equal((await org.get(`/api/audit?actor=${org.keyId}`)).body.entries.length, 5);
  });

  it('is pruned after 365 days', async () => {
    const org = await t.org();
    await org.project();
    const { sql } = t.services;
    await sql`UPDATE audit_entries SET at = now() - interval '366 days' WHERE organization_id = ${org.id} AND action = 'key.create'`;
    await new AuditPruner(sql, createLogger('silent')).runOnce();
    assert.deepEqual(
      (await org.get('/api/audit')).body.entries.map((e: Entry) => e.action),
      ['project.create'],
    );
  });
});

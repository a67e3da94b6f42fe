import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { PASSWORD, signInAs } from '../signedIn.ts';
import { joined, roleOf } from './support.ts';

const t = useTestApp();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('members and roles', () => {
  it('lists the members of the organization with their roles, oldest first', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    await signInAs(t, await t.org()); // someone of another organization
    const listed = await owner.get('/api/members');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((m: { id: string; email: string; role: string }) => [m.id, m.email, m.role]),
      [
        [owner.userId, owner.email, 'owner'],
        [member.userId, member.email, 'member'],
      ],
    );
    for (const entry of listed.body) {
      assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'email', 'id', 'role']);
      assert.match(entry.createdAt, ISO);
    }
  });

  it("eventlog user create makes owners; GET /api/organization says the caller's role", async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    assert.equal(await roleOf(owner), 'owner');
    const member = await joined(t, owner, 'member');
    assert.equal(await roleOf(member), 'member');
    assert.equal((await org.get('/api/organization')).body.role, null, 'an API key has no role');
  });

  it("refuses a member's session with 403 on API keys, members and invitations", async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    const key = await owner.post('/api/keys');
    const refused = [
      await member.get('/api/keys'),
      await member.post('/api/keys'),
      await member.post(`/api/keys/${key.body.id}/revoke`),
      await member.get('/api/members'),
      await member.post('/api/invitations', { email: 'someone@example.com', role: 'member' }),
      await member.post(`/api/members/${owner.userId}/role`, { role: 'member' }),
      await member.post(`/api/members/${owner.userId}/delete`),
      await member.post(`/api/members/${member.userId}/role`, { role: 'owner' }),
    ];
    for (const reply of refused) {
      assert.equal(reply.status, 403, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ['error']);
    }
    // The key was not revoked and the owner is still an owner.
    assert.equal((await t.request({ method: 'GET', url: '/api/projects', headers: { authorization: `Bearer ${key.body.key}` } })).status, 200);
    assert.equal((await owner.get('/api/members')).status, 200);
  });

  it('lets a member do everything else: projects, events, the organization page', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    const project = await member.post('/api/projects', { name: 'By a member' });
    assert.equal(project.status, 201);
    const event = await member.post('/api/events', { project: project.body.id, category: 'members', title: 'hello' });
    assert.equal(event.status, 201, JSON.stringify(event.body));
    assert.equal((await member.get(`/api/events?project=${project.body.id}`)).status, 200);
    assert.equal((await member.get('/api/organization')).status, 200);
  });

  it("refuses a member's session with 403 on deleting a project; an owner and an API key may", async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    const project = await org.project('Kept');
    const refused = await member.post(`/api/projects/${project}/delete`);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.ok(
      (await member.get('/api/projects')).body.some((p: { id: string }) => p.id === project),
      'the project is still there',
    );
    assert.equal((await owner.post(`/api/projects/${project}/delete`)).status, 200);
    assert.equal((await org.post(`/api/projects/${await org.project('By key')}/delete`)).status, 200);
  });

  it('answers an API key with 403 on every members route', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const replies = [
      await org.get('/api/members'),
      await org.post('/api/invitations', { email: 'someone@example.com', role: 'member' }),
      await org.post(`/api/members/${owner.userId}/role`, { role: 'member' }),
      await org.post(`/api/members/${owner.userId}/delete`),
    ];
    for (const reply of replies) assert.equal(reply.status, 403, JSON.stringify(reply.body));
    assert.equal((await owner.get('/api/members')).body.length, 1);
  });

  it('changes a role, and the change applies to open sessions at once', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    assert.equal((await member.get('/api/members')).status, 403);

    const promoted = await owner.post(`/api/members/${member.userId}/role`, { role: 'owner' });
    assert.equal(promoted.status, 200);
    assert.deepEqual(Object.keys(promoted.body).sort(), ['createdAt', 'email', 'id', 'role']);
    assert.equal(promoted.body.role, 'owner');
    assert.equal((await member.get('/api/members')).status, 200, 'the same session now acts as an owner');
    assert.equal(await roleOf(member), 'owner');

    const demoted = await owner.post(`/api/members/${member.userId}/role`, { role: 'member' });
    assert.equal(demoted.body.role, 'member');
    assert.equal((await member.get('/api/keys')).status, 403, 'and back');
  });

  it('validates the role and answers 404 for an unknown or foreign member', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const stranger = await signInAs(t, await t.org());
    for (const body of [{}, { role: 'admin' }, { role: 'OWNER' }, { role: null }]) {
      const reply = await owner.post(`/api/members/${owner.userId}/role`, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
    }
    assert.equal((await owner.post('/api/members/nope/role', { role: 'member' })).status, 404);
    assert.equal((await owner.post(`/api/members/${stranger.userId}/role`, { role: 'member' })).status, 404);
    assert.equal((await owner.post(`/api/members/${stranger.userId}/delete`)).status, 404);
    assert.equal(await roleOf(stranger), 'owner', 'the stranger is untouched');
  });

  it('never demotes or removes the last owner (400)', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    const demote = await owner.post(`/api/members/${owner.userId}/role`, { role: 'member' });
    assert.equal(demote.status, 400);
    assert.match(demote.body.error, /owner/);
    assert.equal((await owner.post(`/api/members/${owner.userId}/delete`)).status, 400);
    assert.equal((await owner.post(`/api/members/${owner.userId}/role`, { role: 'owner' })).status, 200, 'an owner staying an owner is fine');

    // With a second owner, either may step down, but not both.
    await owner.post(`/api/members/${member.userId}/role`, { role: 'owner' });
    assert.equal((await owner.post(`/api/members/${owner.userId}/role`, { role: 'member' })).status, 200);
    assert.equal((await member.post(`/api/members/${member.userId}/role`, { role: 'member' })).status, 400);
  });

  it('keeps an owner when two owners demote each other at the same time', async () => {
    const org = await t.org();
    const first = await signInAs(t, org);
    const second = await joined(t, first, 'owner');
    const replies = await Promise.all([
      first.post(`/api/members/${second.userId}/role`, { role: 'member' }),
      second.post(`/api/members/${first.userId}/role`, { role: 'member' }),
    ]);
    const statuses = replies.map((r) => r.status).sort();
    // The loser is refused as a member now (403) or as the last owner (400).
    assert.equal(statuses[0], 200);
    assert.ok([400, 403].includes(statuses[1]!), JSON.stringify(statuses));
    const [row] = await t.services.sql`SELECT count(*)::int AS owners FROM users WHERE organization_id = ${org.id} AND role = 'owner'`;
    assert.equal(row!.owners, 1);
  });

  it('removes a member: the account is deleted and its sessions end at once', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    assert.equal((await member.get('/api/projects')).status, 200);

    const removed = await owner.post(`/api/members/${member.userId}/delete`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { id: member.userId, deleted: true });
    assert.equal((await member.get('/api/projects')).status, 401, 'the open session has ended');
    assert.equal((await member.post('/api/projects', { name: 'x' })).status, 401);
    const signIn = await t.request({ method: 'POST', url: '/api/session', body: { email: member.email, password: PASSWORD } });
    assert.equal(signIn.status, 401, 'the account is gone');
    assert.deepEqual(
      (await owner.get('/api/members')).body.map((m: { id: string }) => m.id),
      [owner.userId],
    );
    const sessions = await t.services.sql`SELECT 1 FROM sessions WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    assert.equal(sessions.length, 0);
    assert.equal((await owner.post(`/api/members/${member.userId}/delete`)).status, 404, 'removing again is 404');
  });

  it('lets the email of a removed member be invited again', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    await owner.post(`/api/members/${member.userId}/delete`);
    const again = await joined(t, owner, 'owner', member.email);
    assert.notEqual(again.userId, member.userId);
    assert.equal(await roleOf(again), 'owner');
  });

  it('lets an owner remove another owner, or themselves when another owner remains', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const other = await joined(t, owner, 'owner');
    assert.equal((await other.post(`/api/members/${other.userId}/delete`)).status, 200);
    assert.equal((await other.get('/api/session')).status, 401);
    assert.equal((await owner.get('/api/members')).body.length, 1);
  });

  it('ends the live feed of a removed member', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const member = await joined(t, owner, 'member');
    const project = (await owner.post('/api/projects', { name: 'Live' })).body.id as string;
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await fetch(`${base}/api/live?project=${project}`, { headers: { cookie: member.cookie } });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    await reader.read();
    await owner.post(`/api/members/${member.userId}/delete`);
    const deadline = Date.now() + 5_000;
    let ended = false;
    while (!ended && Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]);
      if (chunk === null || chunk.done) ended = chunk?.done ?? false;
    }
    assert.ok(ended, 'the stream ended within 5 s of the removal');
  });
});

describe('the organization page', () => {
  it("shows the name, the id and this month's events against the cap", async () => {
    const org = await t.org({ monthlyEventCap: 1000 });
    const owner = await signInAs(t, org);
    const project = await org.project();
    for (let i = 0; i < 3; i++) await org.post('/api/events', { project, category: 'usage', title: `e${i}` });
    const reply = await owner.get('/api/organization');
    assert.equal(reply.status, 200);
    const month = new Date().toISOString().slice(0, 7);
    assert.deepEqual(reply.body, { id: org.id, name: reply.body.name, monthlyEventCap: 1000, usage: { month, events: 3 }, role: 'owner' });
    assert.match(reply.body.name, /^test-/);
    assert.deepEqual((await org.get('/api/organization')).body, { ...reply.body, role: null }, 'an API key reads the same');
  });

  it('says null for no cap and 0 before the first event', async () => {
    const org = await t.org();
    const reply = await org.get('/api/organization');
    assert.equal(reply.body.monthlyEventCap, null);
    assert.equal(reply.body.usage.events, 0);
  });
});

// Pending invitations (issue "Hardening and polish", dashboard defects 2 and 7): the accept page's
// preview of what a link joins, and the owner's list of pending invitations with revoke and resend.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { signInAs, uniqueEmail } from '../signedIn.ts';
import { accept, invite, joined, tokenOf } from './support.ts';

const t = useTestApp({ BASE_URL: 'https://events.example.test' });
const preview = (token: unknown) => t.request({ method: 'POST', url: '/api/invitations/preview', body: { token } });
const invitationRows = async (organizationId: string) =>
  t.services.sql`SELECT id, token_hash, expires_at FROM invitations WHERE organization_id = ${organizationId} ORDER BY id`;

describe('invitation preview', () => {
  it('answers {organization, email, role, expiresAt} for a live token, with no credential, and changes nothing', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const invitation = await invite(owner, email, 'owner');
    const before = await invitationRows(org.id);
    const reply = await preview(tokenOf(invitation.body.url));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const name = (await t.request({ method: 'GET', url: '/api/organization', headers: { authorization: `Bearer ${org.key}` } })).body.name;
    assert.deepEqual(reply.body, { organization: name, email, role: 'owner', expiresAt: invitation.body.expiresAt });
    assert.equal(reply.headers['cache-control'], 'no-store');
    assert.deepEqual(await invitationRows(org.id), before, 'a preview changes nothing');
    assert.equal((await preview(tokenOf(invitation.body.url))).status, 200, 'and can be asked again');
    assert.equal((await accept(t, tokenOf(invitation.body.url))).status, 200, 'the token still works');
  });

  it('answers 400 {error} to an unknown, malformed, used, expired or missing token', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const used = tokenOf((await invite(owner)).body.url);
    assert.equal((await accept(t, used)).status, 200);
    const expired = tokenOf((await invite(owner)).body.url);
    await t.services.sql`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE organization_id = ${org.id}`;
    for (const [label, token] of [
      ['used', used],
      ['expired', expired],
      ['unknown', 'A'.repeat(43)],
      ['malformed', 'not a token'],
      ['a number', 42],
      ['too long', 'a'.repeat(201)],
    ] as const) {
      const reply = await preview(token);
      assert.equal(reply.status, 400, `${label}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(Object.keys(reply.body), ['error'], label);
    }
    const missing = await t.request({ method: 'POST', url: '/api/invitations/preview', body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['error']);
  });
});

describe('pending invitations', () => {
  it('lists pending invitations newest first, expired ones too, without their links', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const first = await invite(owner, uniqueEmail(), 'member');
    const second = await invite(owner, uniqueEmail(), 'owner');
    await joined(t, owner); // accepted: no longer pending
    await t.services.sql`UPDATE invitations SET expires_at = now() - interval '1 hour' WHERE organization_id = ${org.id} AND id = ${first.body.id}`;
    const reply = await owner.get('/api/invitations');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(
      reply.body.map((i: { id: string }) => i.id),
      [second.body.id, first.body.id],
    );
    assert.deepEqual(Object.keys(reply.body[0]).sort(), ['createdAt', 'email', 'expiresAt', 'id', 'role']);
    assert.equal(reply.body[0].role, 'owner');
    assert.ok(Date.parse(reply.body[1].expiresAt) < Date.now(), 'the expired one is listed as such');
    assert.equal(JSON.stringify(reply.body).includes(tokenOf(first.body.url)), false);
  });

  it('revoke: the link stops working at once; a second revoke and an unknown id are 404', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const invitation = await invite(owner);
    const reply = await owner.post(`/api/invitations/${invitation.body.id}/revoke`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { id: invitation.body.id, revoked: true });
    assert.equal((await accept(t, tokenOf(invitation.body.url))).status, 400);
    assert.equal((await preview(tokenOf(invitation.body.url))).status, 400);
    assert.deepEqual((await owner.get('/api/invitations')).body, []);
    assert.equal((await t.services.sql`SELECT 1 FROM credentials WHERE organization_id = ${org.id} AND kind = 'invitation'`).length, 0);
    for (const id of [invitation.body.id, 'unknown']) {
      const again = await owner.post(`/api/invitations/${id}/revoke`);
      assert.equal(again.status, 404);
      assert.deepEqual(Object.keys(again.body), ['error']);
    }
  });

  it('resend: a new link valid 7 days from now, the same invitation; the old link stops working; audited as member.invite', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const email = uniqueEmail();
    const invitation = await invite(owner, email, 'owner');
    await t.services.sql`UPDATE invitations SET expires_at = now() - interval '1 hour' WHERE organization_id = ${org.id}`;
    const before = Date.now();
    const reply = await owner.post(`/api/invitations/${invitation.body.id}/resend`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual([reply.body.id, reply.body.email, reply.body.role, reply.body.emailed], [invitation.body.id, email, 'owner', false]);
    assert.notEqual(reply.body.url, invitation.body.url);
    assert.equal(reply.headers['cache-control'], 'no-store');
    const lifetime = Date.parse(reply.body.expiresAt) - before;
    assert.ok(Math.abs(lifetime - 7 * 24 * 3600_000) < 60_000, `valid 7 days, got ${lifetime} ms`);
    assert.equal((await preview(tokenOf(invitation.body.url))).status, 400, 'the old link is dead');
    assert.equal((await preview(tokenOf(reply.body.url))).status, 200);
    const audit = await owner.get('/api/audit');
    const invites = audit.body.entries.filter(
      (e: { action: string; target: { id: string } | null }) => e.action === 'member.invite' && e.target?.id === invitation.body.id,
    );
    assert.equal(invites.length, 2, 'the invitation and the resend');
    assert.equal((await accept(t, tokenOf(reply.body.url))).status, 200);
    assert.equal((await owner.post(`/api/invitations/${invitation.body.id}/resend`)).status, 404, 'an accepted invitation is gone');
  });

  it("a member's session and an API key get 403; another organization's invitation is 404 and stays", async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const invitation = await invite(owner);
    const member = await joined(t, owner, 'member');
    for (const [method, url] of [
      ['GET', '/api/invitations'],
      ['POST', `/api/invitations/${invitation.body.id}/revoke`],
      ['POST', `/api/invitations/${invitation.body.id}/resend`],
    ] as const) {
      const asMember = method === 'GET' ? await member.get(url) : await member.post(url);
      assert.equal(asMember.status, 403, `member ${url}`);
      const asKey = await t.request({ method, url, headers: { authorization: `Bearer ${org.key}` } });
      assert.equal(asKey.status, 403, `key ${url}`);
    }
    const stranger = await signInAs(t, await t.org());
    assert.equal((await stranger.post(`/api/invitations/${invitation.body.id}/revoke`)).status, 404);
    assert.equal((await stranger.post(`/api/invitations/${invitation.body.id}/resend`)).status, 404);
    assert.deepEqual((await stranger.get('/api/invitations')).body, []);
    assert.equal((await preview(tokenOf(invitation.body.url))).status, 200, 'still usable');
  });
});

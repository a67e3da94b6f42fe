// Two actions the audit log records beyond the contract's list (decision 200): an owner made by
// `eventlog user create` (who got in without an invitation) and a revoked invitation.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { PASSWORD, signInAs, uniqueEmail } from '../signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { invite } from '../members/support.ts';
import { cleanUp, externalEnv, jsonLine, runCli, tempDataDir } from '../storage/processes.ts';

const t = useTestApp();
after(cleanUp);

async function entries(org: TestOrg, action: string) {
  const page = await org.get(`/api/audit?action=${action}`);
  assert.equal(page.status, 200, JSON.stringify(page.body));
  return page.body.entries as Array<{ actor: { kind: string; id: string | null; label: string | null } | null; action: string; target: unknown }>;
}

describe('audit entries for user create and invitation revoke', () => {
  it('`eventlog user create` records member.create by the operator, once', async () => {
    const org = await t.org();
    const env = externalEnv(t.databaseUrl, tempDataDir('audit-user-create'));
    const email = uniqueEmail();
    const created = jsonLine(await runCli(['user', 'create', email, '--org', org.id], env, `${PASSWORD}\n`));
    assert.equal(created.email, email);
    const recorded = await entries(org, 'member.create');
    assert.equal(recorded.length, 1);
    assert.deepEqual(recorded[0]?.actor, { kind: 'operator', id: null, label: null });
    assert.deepEqual(recorded[0]?.target, { type: 'member', id: created.id });
    // A refused creation (the email exists) records nothing.
    const again = await runCli(['user', 'create', email, '--org', org.id], env, `${PASSWORD}\n`);
    assert.notEqual(again.code, 0);
    assert.equal((await entries(org, 'member.create')).length, 1);
  });

  it('revoking an invitation records invitation.revoke by the owner; an unknown id records nothing', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const invitation = await invite(owner);
    assert.equal(invitation.status, 201);
    assert.equal((await owner.post(`/api/invitations/${invitation.body.id}/revoke`)).status, 200);
    assert.equal((await owner.post(`/api/invitations/${invitation.body.id}/revoke`)).status, 404);
    const recorded = await entries(org, 'invitation.revoke');
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.actor?.id, owner.userId);
    assert.equal(recorded[0]?.actor?.label, owner.email);
    assert.deepEqual(recorded[0]?.target, { type: 'invitation', id: invitation.body.id });
  });
});

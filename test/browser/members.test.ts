// Members in a real browser: an owner invites a person, who accepts in a second browser context
// (another person's browser), signs in as a member and finds the owner-only actions hidden or
// refused; then the owner removes them and their open dashboard is signed out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { type OpenBrowser, freePort, missingBrowser, openBrowser } from './support.ts';

// Invitation links are printed with BASE_URL, so the server must know its address before it starts.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('members in a browser', { skip: missingBrowser }, () => {
  let ownerBrowser: SignedInBrowser | undefined;
  let memberBrowser: OpenBrowser | undefined;
  let owner: Page;
  let member: Page;
  let organizationId = '';
  const memberEmail = `member-${Date.now()}@example.com`;
  let invitationUrl = '';

  before(async () => {
    // The owner's organization has no project yet: signing in lands on the project list.
    ownerBrowser = await openSignedIn(t, {
      organization: 'Members Org',
      monthlyEventCap: 200,
      port,
      viewport: { width: 1280, height: 860 },
      timeoutMs: 8000,
      landsOn: 'Projects',
    });
    ({ organizationId, page: owner } = ownerBrowser);
    // One browser, two people: the member's context signs in by accepting the invitation, which is what it tests.
    memberBrowser = await openBrowser({ viewport: { width: 1280, height: 860 } });
    member = memberBrowser.page;
  });

  after(async () => {
    await ownerBrowser?.close();
    await memberBrowser?.close();
  });

  it('shows the owner the organization: name, id and this month against the cap', async () => {
    await owner.getByRole('link', { name: 'Organization' }).click();
    assert.equal(await owner.getByTestId('organization-id').textContent(), organizationId);
    assert.equal(await owner.getByTestId('organization-name').textContent(), 'Members Org');
    assert.match((await owner.getByTestId('usage').textContent()) ?? '', /0 of 200 events/);
    await owner.locator('progress.usage-bar').waitFor();
    await owner.getByRole('link', { name: 'Manage API keys' }).waitFor();
  });

  it('invites a member and shows the link once', async () => {
    await owner.getByRole('link', { name: 'Members', exact: true }).click();
    await owner.getByTestId('member-row').first().waitFor();
    await owner.locator('input[name=email]').fill(memberEmail);
    await owner.locator('select[name=role]').selectOption('member');
    await owner.getByRole('button', { name: 'Invite' }).click();
    invitationUrl = await owner.getByTestId('invitation-url').inputValue();
    assert.match(invitationUrl, new RegExp(`^${base}/app/accept/[A-Za-z0-9_-]{43}$`));
    await owner.getByRole('button', { name: 'Done' }).click();
  });

  it('the invited person accepts in another browser, is signed in, and the link is then used up', async () => {
    await member.goto(invitationUrl);
    await member.getByRole('heading', { name: 'Join Members Org' }).waitFor();
    await member.getByLabel('Password').fill('a member password');
    await member.getByRole('button', { name: 'Accept and sign in' }).click();
    await member.getByRole('link', { name: 'Organization' }).waitFor();
    assert.equal(new URL(member.url()).pathname.includes('/accept/'), false, 'the used link left the address bar');

    const again = await fetch(`${base}/api/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: invitationUrl.split('/').pop(), password: 'another password' }),
    });
    assert.equal(again.status, 400);
  });

  it('a member does not see owner-only actions, and is refused when going there anyway', async () => {
    await member.getByRole('link', { name: 'Organization' }).click();
    await member.getByTestId('organization-id').waitFor();
    assert.equal(await member.getByRole('link', { name: 'Members', exact: true }).count(), 0);
    assert.equal(await member.getByRole('link', { name: 'API keys' }).count(), 0);
    assert.equal(await member.getByRole('link', { name: 'Manage API keys' }).count(), 0);

    await member.goto(`${base}/app/api`);
    await member.getByRole('alert').filter({ hasText: /owner/ }).waitFor();
    assert.equal(await member.getByTestId('key-row').count(), 0);
    await member.goto(`${base}/app/members`);
    await member.getByRole('alert').filter({ hasText: /owner/ }).waitFor();
    assert.equal(await member.getByTestId('member-row').count(), 0);
  });

  it('the owner removes the member, whose open dashboard is signed out at its next request', async () => {
    await owner.reload();
    const row = owner.getByTestId('member-row').filter({ hasText: memberEmail });
    await row.waitFor();
    await row.getByRole('button', { name: 'Remove' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });

    // The member's next request to the server finds no session.
    await member.reload();
    await member.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await member.getByRole('link', { name: 'Organization' }).count(), 0);
  });
});

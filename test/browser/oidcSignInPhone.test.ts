// Sign-in with OpenID Connect at phone width, password sign-in on: the page offers the provider's
// button above the password form; a person with a pending invitation signs in through the
// provider and joins as a member, who finds the audit log is for owners.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { inviteMember } from '../../src/features/members/inviteMember.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { assertRefusalLandsOnSignIn, signInWithProvider, useOidcServer } from './oidcFlow.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { PASSWORD, ROOT, missingBrowser, openBrowser } from './support.ts';

const PHONE = { width: 390, height: 844 };
const { t, base, people, start } = await useOidcServer({});

describe('sign-in with OpenID Connect in the browser (phone, passwords on)', { skip: missingBrowser }, () => {
  start();

  it('offers the button and the password form', async () => {
    // Someone exists, or the dashboard would offer first-run setup instead.
    const org = await t.org();
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email: `owner-${Date.now()}@example.com`, password: PASSWORD } });
    const browser = await openBrowser({ viewport: PHONE });
    try {
      await browser.page.goto(`${base}/app/`);
      await browser.page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
      await browser.page.getByLabel('Password').waitFor();
      await browser.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await assertNoAxeViolations(browser.page, 'the sign-in page with both ways');
      fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
      await browser.page.screenshot({ path: path.join(ROOT, 'test-results/sign-in-oidc-phone.png') });
    } finally {
      await browser.close();
    }
  });

  it('an invited person signs in through the provider, joins as a member, and is told the audit log is for owners', async () => {
    const org = await t.org();
    await org.project('Shop');
    const email = `invited-${Date.now()}@example.com`;
    await inviteMember({ ctx: org.ctx, input: { email, role: 'member' } });
    people().set('phone-person', { email, verified: true });
    const browser = await openBrowser({ viewport: PHONE, timeoutMs: 15_000 });
    try {
      const { page } = browser;
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signInWithProvider(page, base, 'phone-person');
      await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
      await assertNoAxeViolations(page, 'the feed after joining');
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('link', { name: 'Your account' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Audit log' }).count(), 0, 'a member has no Audit log link');

      await page.goto(`${base}/app/audit`);
      await page.getByTestId('audit-owners-only').getByText('for owners').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'a message, not an error');
      await assertNoAxeViolations(page, 'the audit log, as a member');
      const [row] = await t.services.sql`SELECT role FROM users WHERE organization_id = ${org.id} AND email = ${email}`;
      assert.equal(row?.role, 'member');
      assert.deepEqual(browser.pageErrors, []);
    } finally {
      await browser.close();
    }
  });

  it('sends a person who is not a member back to the sign-in page with the reason and the way in again', async () => {
    people().set('phone-stranger', { email: `stranger-${Date.now()}@example.com`, verified: true });
    const browser = await openBrowser({ viewport: PHONE, timeoutMs: 15_000 });
    try {
      await assertRefusalLandsOnSignIn(browser.page, base, 'phone-stranger');
      assert.deepEqual(browser.pageErrors, []);
    } finally {
      await browser.close();
    }
  });
});

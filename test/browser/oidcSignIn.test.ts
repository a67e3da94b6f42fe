// Sign-in with OpenID Connect at desktop width, password sign-in off (OIDC_PASSWORD_SIGNIN=off):
// the sign-in page is the provider's button alone; a member goes through the provider and back,
// and the audit log records the sign-in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { assertRefusalLandsOnSignIn, signInWithProvider, useOidcServer } from './oidcFlow.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { PASSWORD, missingBrowser, openBrowser } from './support.ts';

const { t, base, people, start } = await useOidcServer({ OIDC_PASSWORD_SIGNIN: 'off' });

describe('sign-in with OpenID Connect in the browser (desktop, passwords off)', { skip: missingBrowser }, () => {
  start();

  it('offers only the button: no password form, and a password sign-in is refused', async () => {
    // Someone exists, or the dashboard would offer first-run setup instead.
    const org = await t.org();
    const email = `password-${Date.now()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: PASSWORD } });
    const browser = await openBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      await browser.page.goto(`${base}/app/`);
      await browser.page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
      assert.equal(await browser.page.getByLabel('Password').count(), 0);
      assert.equal(await browser.page.getByRole('button', { name: 'Sign in', exact: true }).count(), 0);
      await assertNoAxeViolations(browser.page, 'the sign-in page without passwords');
    } finally {
      await browser.close();
    }
    const refused = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(refused.status, 403);
  });

  it('signs a member in through the provider, and the audit log shows the sign-in', async () => {
    const org = await t.org();
    await org.project('Shop');
    const email = `sso-${Date.now()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: PASSWORD } });
    people().set('desktop-person', { email: email.toUpperCase(), verified: true });
    const browser = await openBrowser({ viewport: { width: 1440, height: 900 }, timeoutMs: 15_000 });
    try {
      const { page } = browser;
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signInWithProvider(page, base, 'desktop-person');
      await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
      await assertNoAxeViolations(page, 'the feed after signing in');

      await page.getByRole('link', { name: 'Audit log' }).click();
      const row = page.getByTestId('audit-row').filter({ hasText: 'Signed in' });
      await row.getByTestId('audit-actor').getByText(email).waitFor();
      await assertNoAxeViolations(page, 'the audit log');
      assert.deepEqual(browser.pageErrors, []);
    } finally {
      await browser.close();
    }
  });

  it('sends a person who is not a member back to the sign-in page with the reason and the way in again', async () => {
    people().set('desktop-stranger', { email: `stranger-${Date.now()}@example.com`, verified: true });
    const browser = await openBrowser({ viewport: { width: 1440, height: 900 }, timeoutMs: 15_000 });
    try {
      await assertRefusalLandsOnSignIn(browser.page, base, 'desktop-stranger');
      assert.deepEqual(browser.pageErrors, []);
    } finally {
      await browser.close();
    }
  });
});

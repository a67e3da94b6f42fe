// Email in a real browser, against a real SMTP server: forgot password → the mail → the reset
// page → sign in with the new password; an invitation mailed and accepted from its link; the
// digest settings saved in "Your account" and a preview received.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { startSmtpServer } from '../email/support.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { useTestApp } from '../helpers.ts';
import { type OpenBrowser, PASSWORD, ensureDashboardBuilt, freePort, missingBrowser, openBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const smtp = await startSmtpServer();
after(() => smtp.close());
// The mail queue (which sends the reset link) takes every organization's mail: a database of the file's own.
const t = useTestApp({ BASE_URL: base, SMTP_URL: smtp.url, SMTP_FROM: 'Eventlog <eventlog@example.com>' }, { ownDatabase: true });

function linkIn(text: string | undefined, path: string): string {
  const match = new RegExp(`${base}${path}[A-Za-z0-9_-]{43}`).exec(text ?? '');
  assert.ok(match, text ?? 'no text part');
  return match[0];
}

describe('email in a browser', { skip: missingBrowser }, () => {
  let browser: OpenBrowser;
  let page: Page;
  const ownerEmail = `owner-${Date.now()}@example.com`;
  const invitedEmail = `invited-${Date.now()}@example.com`;

  // A hand set-up, not openSignedIn: the tests are signing in itself (a password reset, an invitation accepted), from no session.
  before(async () => {
    ensureDashboardBuilt();
    await t.app.listen({ port, host: '127.0.0.1' });
    t.services.mailQueue.start();
    const organization = await createOrganization({ ctx: t.operator, input: { name: 'Mail Org', monthlyEventCap: null } });
    await createAccount({ ctx: t.operator, input: { organizationId: organization.id, email: ownerEmail, password: PASSWORD } });
    browser = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
  });

  it('forgot password → mail → reset page → sign in with the new password', async () => {
    await page.goto(`${base}/app/`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    const [mail] = await smtp.waitForMailTo(ownerEmail);
    const link = linkIn(mail?.parsed.text, '/app/reset/');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // Point 18: the page names the account the link is for.
    assert.equal(await page.getByTestId('reset-account').textContent(), ownerEmail);
    await assertNoAxeViolations(page, 'the reset page');
    await page.getByLabel('New password', { exact: true }).fill('my new browser password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Your password is changed' }).waitFor();
    // Point 18: the used link shows no form again, but says why and offers a new one.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    assert.equal(await page.getByLabel('New password', { exact: true }).count(), 0);
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await assertNoAxeViolations(page, `a used reset link (${colorScheme})`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/app/`);

    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByLabel('Password').fill('my new browser password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Organization' }).waitFor();
  });

  it('an invitation is mailed, the dialog says so, and the mailed link is accepted', async () => {
    await page.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByTestId('member-row').first().waitFor();
    await page.locator('input[name=email]').fill(invitedEmail);
    await page.locator('select[name=role]').selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    assert.match((await page.getByTestId('invitation-emailed').textContent()) ?? '', /was emailed to/);
    await page.getByRole('button', { name: 'Done' }).click();

    const [mail] = await smtp.waitForMailTo(invitedEmail);
    const link = linkIn(mail?.parsed.text, '/app/accept/');
    // The invited person's own browser.
    const other = await openBrowser();
    const invited = other.page;
    await invited.goto(link);
    await invited.getByRole('heading', { name: /^Join / }).waitFor();
    await invited.getByLabel('Password').fill('an invited password');
    await invited.getByRole('button', { name: 'Accept and sign in' }).click();
    await invited.getByRole('link', { name: 'Organization' }).waitFor();
    await other.close();
  });

  it('"Your account": the digest choice is saved and "Send me one now" mails a preview', async () => {
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { name: 'Email digest' }).waitFor();
    const zone = await page.locator('input[name=timeZone]').inputValue();
    assert.equal(zone, await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), "the browser's zone by default");
    await page.getByLabel('Weekly, on Mondays').check();
    await page.locator('select[name=hour]').selectOption('7');
    await page.locator('input[name=timeZone]').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Email digest' }).waitFor();
    assert.equal(await page.getByLabel('Weekly, on Mondays').isChecked(), true);
    assert.equal(await page.locator('select[name=hour]').inputValue(), '7');
    assert.equal(await page.locator('input[name=timeZone]').inputValue(), 'Europe/Paris');

    const before = smtp.to(ownerEmail).length;
    await page.getByRole('button', { name: 'Send me one now' }).click();
    await page.getByRole('status').filter({ hasText: 'on its way' }).waitFor();
    const mails = await smtp.waitForMailTo(ownerEmail, before + 1);
    assert.match(mails[before]?.parsed.subject ?? '', /weekly \(preview\) Eventlog digest/);
  });
});

// Invitations as a new owner and a new member meet them (issue "Hardening and polish", dashboard
// defects 2 and 7), at desktop and phone size (both in invitations.test.ts):
// the dialog shows the new link in full with a copy button and the day it stops working; the
// Members page lists pending invitations with Resend and Revoke; the accept page says which
// organization, email and role a link joins, and says plainly when a link cannot be used.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { type TestApp, useTestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { type OpenBrowser, PASSWORD, ROOT, ensureDashboardBuilt, freePort, missingBrowser, openBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');
const DATE = /\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/;

/** A server whose BASE_URL (in the invitation links) is known before it listens. */
export async function useInvitationServer(): Promise<{ t: TestApp; port: number; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return { t: useTestApp({ BASE_URL: base }), port, base };
}

export function invitationsSuite(
  { t, port, base }: { t: TestApp; port: number; base: string },
  size: string,
  viewport: { width: number; height: number },
): void {
  describe(`invitations in a browser (${size})`, { skip: missingBrowser }, () => {
    let owner: OpenBrowser;
    let invited: OpenBrowser;
    let page: Page;
    const stamp = `${size}-${Date.now()}`;
    const memberEmail = `invited-${stamp}@example.com`;
    const revokedEmail = `revoked-${stamp}@example.com`;
    let firstUrl = '';
    let resentUrl = '';
    let revokedUrl = '';

    const inviteFromPage = async (email: string, role: 'member' | 'owner') => {
      await page.locator('input[name=email]').fill(email);
      await page.locator('select[name=role]').selectOption(role);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Invitation link' });
      await dialog.waitFor();
      return dialog;
    };
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    // A hand set-up, not openSignedIn: the owner signs in from the Members page, and the invited person's browser signs in by accepting.
    before(async () => {
      ensureDashboardBuilt();
      if (!t.app.server.listening) await t.app.listen({ port, host: '127.0.0.1' });
      const organization = await createOrganization({ ctx: t.operator, input: { name: `Invite Org ${size}` } });
      const ownerEmail = `owner-${stamp}@example.com`;
      await createAccount({ ctx: t.operator, input: { organizationId: organization.id, email: ownerEmail, password: PASSWORD } });
      owner = await openBrowser({ viewport, timeoutMs: 15_000 });
      invited = await openBrowser({ viewport, timeoutMs: 15_000 });
      await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      page = owner.page;
      await page.goto(`${base}/app/members`);
      await page.getByLabel('Email').fill(ownerEmail);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    });
    after(async () => {
      await owner?.close();
      await invited?.close();
      assert.deepEqual([...(owner?.pageErrors ?? []), ...(invited?.pageErrors ?? [])], []);
    });

    it('the invitation dialog shows the whole link with a copy button and the day it expires', async () => {
      await page.getByText('No pending invitations').waitFor();
      const dialog = await inviteFromPage(memberEmail, 'member');
      const field = dialog.getByTestId('invitation-url');
      firstUrl = await field.inputValue();
      assert.match(firstUrl, new RegExp(`^${base}/app/accept/[A-Za-z0-9_-]{43}$`));
      // Not masked, and all of it in view: the box is as tall as the wrapped text and inside the window.
      assert.equal(await field.evaluate((e) => e.tagName), 'TEXTAREA');
      assert.equal(await field.evaluate((e) => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1), true, 'no hidden part');
      const box = await field.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width, 'the whole link fits in the window');
      const expiry = (await dialog.getByTestId('invitation-expiry').innerText()).trim();
      assert.match(expiry, new RegExp(`until ${DATE.source}`), expiry);
      assert.doesNotMatch(expiry, /until in /);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `invitation-dialog-${size}.png`) });
      await dialog.getByRole('button', { name: 'Copy invitation link' }).click();
      await dialog.getByRole('button', { name: 'Copied invitation link' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), firstUrl);
      await dialog.getByRole('button', { name: 'Done' }).click();
    });

    it('pending invitations are listed with their expiry; Resend shows a new link and the old one stops working', async () => {
      const row = page.getByTestId('invitation-row').filter({ hasText: memberEmail });
      await row.waitFor();
      assert.match(await row.innerText(), new RegExp(`Valid until ${DATE.source}`));
      await page.screenshot({ path: path.join(SHOTS, `members-pending-${size}.png`), fullPage: true });
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);
      await row.getByRole('button', { name: `Resend the invitation of ${memberEmail}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Invitation link' });
      resentUrl = await dialog.getByTestId('invitation-url').inputValue();
      assert.notEqual(resentUrl, firstUrl);
      await dialog.getByRole('button', { name: 'Done' }).click();
      assert.equal(await page.getByTestId('invitation-row').filter({ hasText: memberEmail }).count(), 1, 'still one invitation');

      await invited.page.goto(firstUrl);
      await invited.page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
      await invited.page
        .getByRole('alert')
        .filter({ hasText: /unknown, expired or already used/ })
        .waitFor();
      assert.deepEqual(await axeViolations(invited.page), []);
    });

    it('Revoke asks, then the invitation leaves the list and its link stops working', async () => {
      const dialog = await inviteFromPage(revokedEmail, 'owner');
      revokedUrl = await dialog.getByTestId('invitation-url').inputValue();
      await dialog.getByRole('button', { name: 'Done' }).click();
      const row = page.getByTestId('invitation-row').filter({ hasText: revokedEmail });
      await row.getByRole('button', { name: `Revoke the invitation of ${revokedEmail}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke this invitation?' });
      assert.deepEqual(await axeViolations(page), []);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await row.waitFor({ state: 'detached' });
      const preview = await fetch(`${base}/api/invitations/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: revokedUrl.split('/').pop() }),
      });
      assert.equal(preview.status, 400);
    });

    it('when the preview gets no answer, the accept page keeps its form and says the link was not checked', async () => {
      await invited.page.route('**/api/invitations/preview', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' }),
      );
      await invited.page.goto(revokedUrl);
      await invited.page.getByText(/The invitation could not be checked/).waitFor();
      await invited.page.getByLabel('Password').waitFor();
      assert.deepEqual(await axeViolations(invited.page), []);
      await invited.page.unroute('**/api/invitations/preview');
    });

    it('the accept page names the organization, the email and the role, then signs the new member in', async () => {
      await invited.page.goto(resentUrl);
      await invited.page.getByRole('heading', { name: `Join Invite Org ${size}` }).waitFor();
      const summary = await invited.page.getByTestId('invitation-summary').innerText();
      assert.match(summary, new RegExp(`invited to Invite Org ${size} as a member, with the email ${memberEmail.replace(/\./g, '\\.')}`));
      assert.match(summary, new RegExp(`works until ${DATE.source}`));
      assert.equal(await invited.page.getByLabel('Email').inputValue(), memberEmail);
      await invited.page.screenshot({ path: path.join(SHOTS, `accept-${size}.png`) });
      assert.deepEqual(await axeViolations(invited.page), []);
      assert.equal(await invited.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
      await invited.page.getByLabel('Password').fill('an invited password');
      await invited.page.getByRole('button', { name: 'Accept and sign in' }).click();
      await invited.page.waitForFunction(() => !location.pathname.includes('/accept/'));
      assert.equal(await invited.page.evaluate(async () => (await (await fetch('/api/session')).json()).user.email), memberEmail, 'signed in');

      await page.reload();
      await page.getByTestId('member-row').filter({ hasText: memberEmail }).waitFor();
      await page.getByText('No pending invitations').waitFor();
    });
  });
}

// Notification preferences in the dashboard (extensions.md, "Notification preferences"), at one
// window size in turn, both in notificationPreferences.test.ts:
// quiet hours set on the Account page's week grid, with the window in words; a snooze from the
// top bar's menu, shown there until it is turned off; axe-clean throughout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

export function notificationPreferencesSuite(t: TestApp, size: 'desktop' | 'phone', viewport: { width: number; height: number }): void {
  describe(`notification preferences in the dashboard (${size})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let base = '';
    let organizationId = '';
    let userId = '';
    const stored = async () => {
      const [row] = await t.services.sql<{ quietHours: unknown; snoozedUntil: Date | null }[]>`
        SELECT quiet_hours AS "quietHours", snoozed_until AS "snoozedUntil" FROM notification_preferences
        WHERE organization_id = ${organizationId} AND user_id = ${userId}`;
      return row;
    };
    /** On a phone the top bar's links and account fold into its menu. */
    const openTopBar = async () => {
      if (size === 'phone') await page.getByRole('button', { name: 'Menu' }).click();
    };

    before(async () => {
      browser = await openSignedIn(t, {
        organization: 'Quiet Org',
        viewport,
        seed: async (api) => {
          assert.equal((await api('POST', '/api/projects', { name: 'Shop' })).status, 201);
        },
      });
      ({ base, page, organizationId, userId } = browser);
    });
    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    it('sets quiet hours on the Account page, in words before saving', async () => {
      await page.goto(`${base}/app/account`);
      const form = page.getByRole('form', { name: 'Notifications' });
      await form.getByLabel('Hold notifications during quiet hours').check();
      await form.getByLabel('Time zone').selectOption('Europe/Paris');
      await form.getByText('Quiet every weekday 22:00-07:00 Paris time.').waitFor();
      await form.getByRole('group', { name: 'Days quiet hours start on' }).getByLabel('Sat').check();
      await form.getByText('Quiet every Monday, Tuesday, Wednesday, Thursday, Friday, Saturday 22:00-07:00 Paris time.').waitFor();
      await form.getByLabel('Until').fill('06:30');
      assert.deepEqual(await axeViolations(page), []);
      await form.getByRole('button', { name: 'Save notifications' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      assert.deepEqual((await stored())?.quietHours, { timeZone: 'Europe/Paris', start: '22:00', end: '06:30', days: [1, 2, 3, 4, 5, 6] });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    });

    it('snoozes from the top bar, shows it, and turns it off', async () => {
      await page.goto(`${base}/app/account`);
      await openTopBar();
      const before = Date.now();
      await page.locator('.snooze-toggle').click();
      await page.getByRole('button', { name: 'Snooze for 1 hour' }).click();
      await page.getByRole('button', { name: /^Snoozed until / }).waitFor();
      const snoozed = (await stored())?.snoozedUntil;
      assert.ok(snoozed && Math.abs(snoozed.getTime() - before - 3_600_000) < 60_000, String(snoozed));
      await page.getByText(/^Snoozed until .* \(change it from the top bar\)\.$/).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await page.getByRole('button', { name: /^Snoozed until / }).click();
      await page.getByRole('button', { name: 'Until tomorrow 08:00' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await page.getByRole('button', { name: 'Snooze off' }).click();
      await page.locator('.snooze-toggle').filter({ hasNotText: 'Snoozed' }).waitFor();
      assert.equal((await stored())?.snoozedUntil, null);
      // The quiet hours saved before are kept by the snooze.
      assert.ok((await stored())?.quietHours);
    });
  });
}

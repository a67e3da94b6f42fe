// Firing alerts as the dashboard points to them (issue 49, point 12), at desktop (1440×900) and
// phone (390×844) widths, axe-clean in light and dark: the projects page's Firing badge is a link
// to the project's alerts and each firing alert's name a link to that alert, which the Alerts tab
// then marks and focuses; a muted alert is not listed there, and with every firing alert muted the
// badge is gone; the firing banner lists the firing alerts but not the muted ones, does
// not link to the Alerts tab from the Alerts tab, and can be dismissed (it stays closed on that
// firing); a mail's mute link opens the alert with its Mute choice in focus and changes nothing
// until a choice is made. The alerts fire by one evaluation pass, not a running engine.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolationsInBothThemes } from './pageChecks.ts';
import { type SignedInBrowser, type Viewport, openSignedIn } from './signedInBrowser.ts';
import { freePort, missingBrowser } from './support.ts';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

/** An alert that fires on one `category` event in the last minute. */
async function firingAlert(api: SignedInBrowser['api'], project: string, name: string, category: string): Promise<string> {
  const created = await api('POST', `/api/projects/${project}/alerts`, {
    name,
    filter: { category },
    condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal((await api('POST', '/api/events', { project, category, title: `${category} happened` })).status, 201);
  return created.body.id as string;
}

describe('firing alerts: the projects page, the banner and the links', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser | undefined;
  let page: Page;

  afterEach(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
    browser = undefined;
  });

  /** A fresh organization with three firing alerts, one of them muted, and its member signed in (closed after the test). */
  async function firingProject(size: string, viewport: Viewport) {
    let project = '';
    let [checkout, payments, muted] = ['', '', ''];
    browser = await openSignedIn(t, {
      organization: `Alert Links Org ${size}`,
      port,
      viewport,
      seed: async (api, organizationId) => {
        const created = await api('POST', '/api/projects', { name: 'Shop' });
        assert.equal(created.status, 201);
        project = created.body.id;
        checkout = await firingAlert(api, project, 'Checkout errors', 'errors');
        payments = await firingAlert(api, project, 'Slow payments', 'payments');
        muted = await firingAlert(api, project, 'Noisy crawler', 'crawlers');
        await evaluateOrganization(t.services.sql, organizationId, t.services.config.timeZone);
        for (const id of [checkout, payments, muted]) assert.equal((await api('GET', `/api/alerts/${id}`)).body.state, 'firing');
        const mute = await api('POST', `/api/alerts/${muted}/mute`, { until: Math.floor(Date.now() / 1000) + 3600 });
        assert.equal(mute.status, 200, JSON.stringify(mute.body));
      },
    });
    page = browser.page;
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    return { api: browser.api, project, checkout, payments, muted };
  }

  for (const [size, viewport] of Object.entries(SIZES)) {
    it(`${size}: the Firing badge and each firing alert's name are links; the alert opens marked and focused`, async () => {
      const { api, project, checkout, payments } = await firingProject(size, viewport);
      await page.goto(`${base}/app/projects`);
      const firing = page.getByTestId('project-firing-alerts');
      await firing.waitFor();
      const badge = firing.getByRole('link', { name: /^Firing/ });
      assert.equal(await badge.getAttribute('href'), `/app/p/${project}/alerts`);
      const names = firing.getByTestId('project-firing-alert');
      // All three fire in one evaluation, at one time: their order among themselves is not the point.
      // The muted one ("Noisy crawler") still fires, but is not listed, as the banner leaves it out.
      const links = await names.evaluateAll((found) => found.map((link) => `${link.textContent} ${link.getAttribute('href')}`));
      assert.deepEqual(links.sort(), [
        `Checkout errors /app/p/${project}/alerts?alert=${checkout}`,
        `Slow payments /app/p/${project}/alerts?alert=${payments}`,
      ]);
      assert.doesNotMatch((await firing.textContent()) ?? '', /Noisy crawler/);
      await assertNoAxeViolationsInBothThemes(page, `the projects page with firing alerts, ${size}`);
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

      await firing.getByRole('link', { name: 'Slow payments' }).click();
      await page.waitForURL(`${base}/app/p/${project}/alerts?alert=${payments}`);
      const row = page.locator(`[data-testid="alert-row"][data-alert-id="${payments}"]`);
      await row.waitFor();
      await page.waitForFunction(() => document.activeElement?.classList.contains('alert-name'));
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Slow payments');
      assert.match((await row.getAttribute('class')) ?? '', /\balert-linked\b/);
      assert.equal(await page.locator('.alert-linked').count(), 1);
      const box = (await row.boundingBox())!;
      assert.ok(box.y < viewport.height && box.y + box.height > 0, 'the alert is on screen');

      // The badge itself opens the project's alerts.
      await page.goto(`${base}/app/projects`);
      await badge.click();
      await page.waitForURL(`${base}/app/p/${project}/alerts`);
      await page.getByTestId('alert-row').nth(2).waitFor();
      assert.equal(await page.locator('.alert-linked').count(), 0);

      // Every firing alert muted: the project has no Firing badge at all.
      for (const id of [checkout, payments]) {
        assert.equal((await api('POST', `/api/alerts/${id}/mute`, { until: Math.floor(Date.now() / 1000) + 3600 })).status, 200);
      }
      await page.goto(`${base}/app/projects`);
      await page.getByTestId('project-activity').waitFor();
      assert.equal(await firing.count(), 0, 'no Firing badge while every firing alert is muted');
      await assertNoAxeViolationsInBothThemes(page, `the projects page with its firing alerts muted, ${size}`);
    });

    it(`${size}: the banner leaves muted alerts out, does not link to the Alerts tab from it, and closes`, async () => {
      const { project } = await firingProject(size, viewport);
      const banner = page.getByTestId('firing-alerts-banner');

      await page.goto(`${base}/app/p/${project}/alerts`);
      await banner.waitFor();
      assert.equal((await banner.locator('span').first().textContent())?.trim(), 'Alerts firing: “Checkout errors”, “Slow payments”');
      assert.doesNotMatch((await banner.textContent()) ?? '', /Noisy crawler/, 'a muted alert is not in the banner');
      // The muted one still fires: the Alerts tab says so, with when its mute ends.
      const mutedRow = page.getByTestId('alert-row').filter({ hasText: 'Noisy crawler' });
      assert.equal(await mutedRow.getByTestId('alert-state').textContent(), 'Firing');
      await mutedRow.getByTestId('alert-muted').waitFor();
      assert.equal(await banner.getByRole('link').count(), 0, 'no link to the page it is on');
      await assertNoAxeViolationsInBothThemes(page, `the Alerts tab with the banner, ${size}`);
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

      await page.getByRole('link', { name: 'Feed', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
      await banner.waitFor();
      const open = banner.getByRole('link', { name: 'Open Alerts' });
      assert.equal(await open.getAttribute('href'), `/app/p/${project}/alerts`);
      await assertNoAxeViolationsInBothThemes(page, `the feed with the banner, ${size}`);
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await banner.waitFor({ state: 'detached' });
      // Closed for this firing, after a reload too: once the banner has read the alerts (the tab
      // reads them, and the banner after it), it stays away.
      let reads = 0;
      const countReads = (response: { url(): string }) => {
        if (new URL(response.url()).pathname === `/api/projects/${project}/alerts`) reads++;
      };
      page.on('response', countReads);
      try {
        await page.goto(`${base}/app/p/${project}/alerts`);
        await page.getByTestId('alert-row').nth(2).waitFor();
        await page.waitForFunction(() => document.readyState === 'complete');
        for (const deadline = Date.now() + 10_000; reads < 2;) {
          assert.ok(Date.now() < deadline, `the alerts were read ${reads} times`);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        }
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        assert.equal(await banner.count(), 0);
      } finally {
        page.off('response', countReads);
      }
    });

    it(`${size}: a mail's mute link opens the alert with Mute in focus, and changes nothing by itself`, async () => {
      const { api, project, checkout } = await firingProject(size, viewport);
      await page.goto(`${base}/app/p/${project}/alerts?alert=${checkout}&mute=1`);
      const row = page.locator(`[data-testid="alert-row"][data-alert-id="${checkout}"]`);
      await row.getByTestId('alert-mute-offer').waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'mute');
      assert.equal(await row.getByLabel('Mute Checkout errors').evaluate((select) => select === document.activeElement), true);
      assert.equal((await api('GET', `/api/alerts/${checkout}`)).body.mutedUntil, null, 'following the link muted nothing');
      await assertNoAxeViolationsInBothThemes(page, `the alert offered for muting, ${size}`);
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      await row.getByLabel('Mute Checkout errors').selectOption('3600');
      await row.getByTestId('alert-muted').waitFor();
      assert.ok(Date.parse((await api('GET', `/api/alerts/${checkout}`)).body.mutedUntil) > Date.now() + 3_500_000);

      // A link to an alert that is not there says so.
      await page.goto(`${base}/app/p/${project}/alerts?alert=alt_gone&mute=1`);
      await page.getByTestId('alert-link-gone').waitFor();
      await assertNoAxeViolationsInBothThemes(page, `a link to a deleted alert, ${size}`);
    });
  }
});

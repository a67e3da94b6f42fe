// Funnels and chart breakdowns in a real browser, at a desktop (1440x900) and a phone (390x844)
// width: a 3-step funnel built with the pickers and a breakdown by a tag with a tag filter, both
// kept in the URL, so a reload shows them as they were. Each state passes the accessibility audit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { auditPage } from './accessibilityAudit.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

const t = useTestApp();
const HOUR = 3600;

describe('funnels and breakdowns in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let projectId = '';

  before(async () => {
    // The figures are read with en-US number formatting: the context's locale is the reader's.
    browser = await openSignedIn(t, {
      organization: 'Funnels Browser Org',
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      timeoutMs: 10000,
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;

        // ann and bob (pro) and cat and dan (free) sign up; ann, bob and cat activate; ann pays.
        const start = Math.floor(Date.now() / 1000) - 2 * 86_400;
        const plans: Record<string, string> = { ann: 'pro', bob: 'pro', cat: 'free', dan: 'free' };
        const made: Array<[string, string, number]> = [
          ['ann', 'signup', 0],
          ['bob', 'signup', 0],
          ['cat', 'signup', 0],
          ['dan', 'signup', 0],
          ['ann', 'activate', 1],
          ['bob', 'activate', 1],
          ['cat', 'activate', 1],
          ['ann', 'pay', 2],
        ];
        for (const [user, category, hours] of made) {
          const reply = await api('POST', '/api/events', {
            project: projectId,
            category,
            title: `${user} ${category}`,
            user_id: user,
            tags: { plan: plans[user] },
            created_at: start + hours * HOUR,
          });
          assert.equal(reply.status, 201, JSON.stringify(reply.body));
        }
      },
    });
    ({ base, page } = browser);
  });

  after(async () => {
    await browser?.close();
  });

  const counts = async () => {
    await page.getByTestId('funnel-users').first().waitFor();
    return page.getByTestId('funnel-users').allTextContents();
  };

  const assertAccessible = async (state: string) => {
    // At the top, as a page opens: the sticky top bar never sits over a scrolled-away field.
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const failures = await auditPage(page);
      assert.deepEqual(
        failures.map((f) => `${state} (${colorScheme}): ${f.kind} ${f.element} ${f.detail}`),
        [],
      );
    }
  };

  for (const size of [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ] as const) {
    it(`builds a 3-step funnel that a reload keeps, at ${size.name} width`, async () => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${base}/app/p/${projectId}/funnels`);
      await page.getByRole('heading', { name: 'Funnels', level: 1 }).waitFor();
      const step = (n: number) => page.getByRole('group', { name: `Step ${n}` });
      await step(1).getByRole('option', { name: 'signup' }).waitFor({ state: 'attached' });
      await step(1).getByLabel('Category').selectOption('signup');
      await step(1).getByLabel('Tag filter').fill('plan:pro');
      await step(1).getByRole('button', { name: 'Add tag to step 1' }).click();
      await step(1).getByRole('button', { name: 'Remove tag plan:pro from step 1' }).waitFor();
      await step(2).getByLabel('Category').selectOption('activate');
      await page.getByRole('button', { name: 'Add step' }).click();
      await step(3).getByLabel('Category').selectOption('pay');
      await page.getByRole('button', { name: 'Show funnel' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=funnel-users]').length === 3);
      assert.deepEqual(await counts(), ['2', '2', '1']);
      // Point 13: one rate per comparison, the drop-off in people, and the overall conversion.
      const rates = await page.locator('.funnel-step-rates').allTextContents();
      assert.deepEqual(rates, ['Entered the funnel', '100% of step 1 · nobody dropped off', '50.0% of step 2 · 1 user dropped off · 50.0% overall']);
      assert.equal(await page.getByTestId('funnel-overall').innerText(), '50.0% overall conversion (1 of 2 users reached step 3)');
      // On a phone the result sits below the editor: showing it brings it into view.
      const shown = await page
        .getByRole('region', { name: 'Funnel result' })
        .evaluate((section) => ({ top: section.getBoundingClientRect().top, bottom: section.getBoundingClientRect().bottom }));
      assert.ok(shown.top >= 0 && Math.min(shown.bottom, shown.top + 200) <= size.height, `the result is in view: ${JSON.stringify(shown)}`);
      await assertAccessible(`funnel ${size.name}`);

      await page.reload();
      await page.getByRole('heading', { name: 'Funnels', level: 1 }).waitFor();
      assert.deepEqual(await counts(), ['2', '2', '1']);
      assert.equal(await step(3).getByLabel('Category').inputValue(), 'pay');
      await step(1).getByRole('button', { name: 'Remove tag plan:pro from step 1' }).waitFor();
      assert.ok(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)), 'no sideways scroll');
      assert.deepEqual(browser.pageErrors, []);
    });

    it(`breaks a chart down by a tag, filtered by another, and a reload keeps both, at ${size.name} width`, async () => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${base}/app/p/${projectId}/charts`);
      await page.getByRole('heading', { name: 'Charts', level: 1 }).waitFor();
      const legend = page.getByRole('list', { name: 'Legend' });
      await legend.getByRole('button', { name: /signup/ }).waitFor();
      await page.getByLabel('Break down by tag key').fill('plan');
      await page.getByRole('button', { name: 'Break down', exact: true }).click();
      await legend.getByRole('button', { name: /^free/ }).waitFor();
      assert.equal(await legend.getByRole('button').count(), 2);
      // Point 14: the totals name the tag, and the key was offered among the project's tag keys.
      const totals = page.getByRole('table', { name: /^Totals over/ });
      assert.equal(await totals.getByRole('columnheader').first().textContent(), 'Tag plan');
      assert.equal(await totals.getByRole('rowheader').textContent(), 'All values');
      assert.deepEqual(
        await page
          .getByTestId('tag-key-suggestions')
          .locator('option')
          .evaluateAll((options) => options.map((o) => o.getAttribute('value'))),
        ['plan'],
      );
      await page.getByLabel('Only events with tag').fill('plan:pro');
      await page.getByRole('button', { name: 'Add filter' }).click();
      await legend.getByRole('button', { name: /^free/ }).waitFor({ state: 'detached' });
      assert.equal(await page.getByTestId('chart-total').textContent(), '5');
      await assertAccessible(`breakdown ${size.name}`);

      await page.reload();
      await page.getByRole('button', { name: 'Remove breakdown by plan' }).waitFor();
      await page.getByRole('button', { name: 'Remove filter tag plan:pro' }).waitFor();
      await legend.getByRole('button', { name: /^pro/ }).waitFor();
      assert.equal(await legend.getByRole('button').count(), 1);
      assert.equal(await page.getByTestId('chart-total').textContent(), '5');
      assert.ok(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)), 'no sideways scroll');
      assert.deepEqual(browser.pageErrors, []);
    });
  }
});

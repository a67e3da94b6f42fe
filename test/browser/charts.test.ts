// The Charts page in a real browser with 100 categories of long names, on a desktop (1440x900)
// and a phone (390x844), light and dark: stacked bars with totals, a legend of ten that stays
// below the plot, ten distinct colours, a searchable picker of a fixed width, and no sideways
// scroll on the phone. Screenshots land in test-results/charts-<size>-<theme>.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, missingBrowser } from './support.ts';

const t = useTestApp();
const SHOTS = path.join(ROOT, 'test-results');
const CATEGORY_COUNT = 100;
const DAY = 86_400;

/** Long names without spaces, the worst case for wrapping: up to 100 characters, the spec's limit. */
function categoryName(index: number): string {
  const number = String(index).padStart(3, '0');
  return `${number}-payments-service-checkout-authorization-webhook-retry-exhausted-upstream-timeout`.slice(0, 60 + (index % 40));
}

describe('charts in a browser with 100 categories', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let projectId = '';
  let eventCount = 0;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    // The totals are read with en-US digit grouping: the context's locale is the reader's.
    browser = await openSignedIn(t, {
      organization: 'Charts Browser Org',
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      timeoutMs: 10000,
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Busy shop' })).body.id;

        // Category i has a few events spread over the last 30 days; the first ones are the busiest.
        const now = Math.floor(Date.now() / 1000);
        const drafts: Array<{ category: string; created_at: number }> = [];
        for (let index = 0; index < CATEGORY_COUNT; index++) {
          const events = index < 12 ? 14 - index : 1 + (index % 3);
          for (let n = 0; n < events; n++) drafts.push({ category: categoryName(index), created_at: now - ((index * 7 + n * 5) % 28) * DAY - 60 });
        }
        for (let start = 0; start < drafts.length; start += 25) {
          const replies = await Promise.all(
            drafts.slice(start, start + 25).map((draft, n) => api('POST', '/api/events', { project: projectId, title: `Event ${start + n}`, ...draft })),
          );
          for (const reply of replies) assert.equal(reply.status, 201, JSON.stringify(reply.body));
        }
        eventCount = drafts.length;
      },
    });
    ({ base, page } = browser);
  });

  after(async () => {
    await browser?.close();
  });

  const sizes = [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ] as const;

  for (const size of sizes) {
    for (const theme of ['light', 'dark'] as const) {
      it(`reads at a glance at ${size.width}x${size.height} in the ${theme} theme`, async () => {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`${base}/app/p/${projectId}/charts`);
        await page.getByRole('heading', { name: 'Charts', level: 1 }).waitFor();
        const legend = page.getByRole('list', { name: 'Legend' });
        await legend.getByRole('button').first().waitFor();

        // The range total, and the nine busiest categories plus "Other" in ten distinct colours.
        assert.equal(await page.getByTestId('chart-total').textContent(), eventCount.toLocaleString('en-US'));
        const entries = legend.getByRole('button');
        assert.equal(await entries.count(), 10);
        assert.match((await entries.last().textContent()) ?? '', /^Other \(91 categories\)/);
        const colours = await legend.locator('.chart-swatch').evaluateAll((swatches) => swatches.map((swatch) => getComputedStyle(swatch).backgroundColor));
        assert.equal(new Set(colours).size, 10, `distinct colours: ${colours.join(' ')}`);

        // The legend sits below the plot, inside the viewport's width.
        const canvas = await page.getByTestId('chart-canvas').boundingBox();
        const legendBox = await legend.boundingBox();
        assert.ok(canvas && legendBox && canvas.width > 200 && canvas.height > 150, 'the chart has a size');
        assert.ok(legendBox.y >= canvas.y + canvas.height, 'the legend never covers the plot');
        assert.ok(legendBox.x + legendBox.width <= size.width, 'the legend fits the width');

        // The picker keeps its width whatever the names, and finds a category by a part of its name.
        const picker = page.getByRole('combobox', { name: 'Category' });
        const pickerBox = await picker.boundingBox();
        assert.ok(pickerBox && pickerBox.width <= Math.min(340, size.width), `picker width ${pickerBox?.width}`);
        await picker.click();
        const listbox = page.getByRole('listbox', { name: 'Categories' });
        const listBox = await listbox.boundingBox();
        assert.ok(listBox && listBox.x + listBox.width <= size.width, 'the open list fits the width');
        await picker.fill('042-');
        assert.equal(await listbox.getByRole('option').count(), 1);
        if (size.name === 'phone') await page.screenshot({ path: path.join(SHOTS, `charts-${size.name}-${theme}-picker.png`) });

        await assertNoSidewaysScroll(page, size.width);
        await page.keyboard.press('Escape');
        await page.screenshot({ path: path.join(SHOTS, `charts-${size.name}-${theme}.png`), fullPage: true });

        await picker.fill('042-');
        await page.keyboard.press('Enter');
        const totals = page.getByRole('table', { name: /Totals/ });
        await totals.getByRole('cell', { name: categoryName(0), exact: true }).waitFor({ state: 'detached' });
        await totals.getByRole('cell', { name: categoryName(42), exact: true }).waitFor();
        assert.equal(await picker.inputValue(), categoryName(42));
        assert.equal(await entries.count(), 1);
        await assertNoSidewaysScroll(page, size.width);
        assert.deepEqual(browser.pageErrors, []);
      });
    }
  }

  it('hides a stack from the legend and lists every category on request', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/app/p/${projectId}/charts`);
    const legend = page.getByRole('list', { name: 'Legend' });
    const first = legend.getByRole('button').first();
    await first.waitFor();
    assert.equal(await first.getAttribute('aria-pressed'), 'true');
    await first.click();
    assert.equal(await first.getAttribute('aria-pressed'), 'false');
    const totals = page.getByRole('table', { name: /Totals/ });
    assert.equal(await totals.locator('tbody tr').count(), 10);
    await page.getByRole('button', { name: `Show all ${CATEGORY_COUNT} categories` }).click();
    assert.equal(await totals.locator('tbody tr').count(), CATEGORY_COUNT);

    // Long windows are drawn per week where daily bars would be hairlines; the totals stay.
    const unit = page.locator('.chart-unit');
    await page.getByRole('button', { name: '90 days' }).click();
    assert.equal(await unit.textContent(), 'Days');
    await page.getByRole('button', { name: '1 year' }).click();
    await page.locator('.chart-unit', { hasText: 'Weeks' }).waitFor();
    assert.equal(await page.getByTestId('chart-total').textContent(), eventCount.toLocaleString('en-US'));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: '90 days' }).click();
    await page.locator('.chart-unit', { hasText: 'Weeks' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'charts-phone-90-days.png') });
    await page.getByRole('button', { name: '30 days' }).click();
    await page.locator('.chart-unit', { hasText: 'Days' }).waitFor();
    assert.deepEqual(browser.pageErrors, []);
  });
});

async function assertNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `no sideways scroll: ${scrollWidth} px of content in ${width} px`);
}

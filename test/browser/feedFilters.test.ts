// The feed's filters in a browser at desktop (1440×900) and phone (390×844) widths, light and
// dark: how many events match (exact once everything is loaded, "50+" before), a note that the
// category counts are all-time totals, "Clear all filters", and one height for every control of
// the filter row (a tag chip, the favorites checkbox, the alert link, the time range select).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, freePort, missingBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('the feed filters in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Feed Filters Org',
      port,
      viewport: SIZES.desktop,
      timeoutMs: 10_000,
      seed: async (api) => {
        project = (await api('POST', '/api/projects', { name: 'Filters' })).body.id;
        const now = Math.floor(Date.now() / 1000);
        const post = async (event: Record<string, unknown>) => assert.equal((await api('POST', '/api/events', { project, ...event })).status, 201);
        // 53 "pro" orders (one of them three days old, beyond the first page) and 2 "free" signups.
        await post({ category: 'orders', title: 'Old pro order', tags: { plan: 'pro' }, created_at: now - 3 * 86_400 });
        for (let i = 0; i < 52; i++) await post({ category: 'orders', title: `Pro order ${i}`, tags: { plan: 'pro' }, created_at: now - 600 + i });
        for (let i = 0; i < 2; i++) await post({ category: 'signups', title: `Free signup ${i}`, tags: { plan: 'free' }, user_id: 'ann@example.com' });
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  const count = () => page.getByTestId('filter-count');
  const note = () => page.getByTestId('category-totals-note');
  const row = (title: string) => page.locator('article.event', { has: page.getByRole('heading', { name: title, exact: true }) });
  const settled = () =>
    page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
    );

  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const theme of THEMES) {
      it(`${size}, ${theme}: the match count, the totals note, Clear all, one height for every control`, async () => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`${base}/app/p/${project}`);
        await row('Free signup 1').waitFor();
        assert.equal(await count().count(), 0, 'no count without a filter');
        assert.equal(await note().count(), 0, 'the counts are the whole feed: no note');

        // A tag filter from a row: the exact count, and the note beside the category totals.
        await row('Free signup 1')
          .getByRole('button', { name: /^Filter by tag\s*plan\s*:\s*free$/ })
          .click();
        await count().getByText('2 events match these filters').waitFor();
        await note().waitFor();
        assert.equal(await note().isVisible(), true);
        await settled();
        await assertNoAxeViolations(page, `a tag filter, ${size} ${theme}`);

        // A search on top; "Clear all filters" takes every filter off, the search box too.
        await page.getByLabel('Search events').fill('signup');
        await page.waitForFunction(() => new URLSearchParams(location.search).get('search') === 'signup');
        await count().getByText('2 events match these filters').waitFor();
        await page.getByRole('button', { name: 'Clear all filters' }).click();
        await count().waitFor({ state: 'detached' });
        assert.equal(await note().count(), 0);
        assert.equal(new URL(page.url()).search, '');
        assert.equal(await page.getByLabel('Search events').inputValue(), '');
        await row('Pro order 51').waitFor();

        // More matches than one page: a lower bound that says so, exact once all are loaded.
        await page.goto(`${base}/app/p/${project}?tag=plan:pro`);
        await count().getByText('50+ events match these filters').waitFor();
        // The list also loads the next page by itself once its button scrolls into view, which a
        // click's own scrolling can set off first on a phone: the button may be gone by then.
        await page
          .getByRole('button', { name: 'Load older events' })
          .dispatchEvent('click', undefined, { timeout: 2000 })
          .catch(() => {});
        await count().getByText('53 events match these filters').waitFor();
        // The category alone: counted, and the category totals need no note.
        await page.goto(`${base}/app/p/${project}?category=signups`);
        await count().getByText('2 events match these filters').waitFor();
        assert.equal(await note().count(), 0);

        // Every control of the filter row, with every kind of filter on: one height, ≥ 24×24.
        await page.goto(`${base}/app/p/${project}?tag=plan:free&user_id=ann%40example.com&favorited=true&range=24h`);
        await count().getByText('0 events match these filters').waitFor();
        const controls = await page.locator('.filter-chips > *, .clear-filters').evaluateAll((nodes) =>
          nodes.map((node) => {
            const box = node.getBoundingClientRect();
            return { what: node.textContent?.trim(), height: box.height, width: box.width, font: getComputedStyle(node).fontSize };
          }),
        );
        assert.equal(controls.length, 6, JSON.stringify(controls));
        const heights = controls.map((control) => control.height);
        assert.ok(Math.max(...heights) - Math.min(...heights) < 0.5, `one height: ${JSON.stringify(controls)}`);
        assert.ok(Math.min(...heights) >= 24 && Math.min(...controls.map((control) => control.width)) >= 24, `≥ 24×24: ${JSON.stringify(controls)}`);
        assert.equal(new Set(controls.map((control) => control.font)).size, 1, `one text size: ${JSON.stringify(controls)}`);
        await settled();
        await assertNoAxeViolations(page, `every filter on, ${size} ${theme}`);
        await page.screenshot({ path: path.join(SHOTS, `feed-filters-${size}-${theme}.png`) });
      });
    }
  }
});

// The feed's Tab order in a browser at desktop (1440×900) and phone (390×844) widths, light and
// dark (issue 49, point 17): one pass of Tab from the top of the page meets the search, then the
// categories (one stop, arrows among them), then the filters, one card and "Load older events",
// and never <body> on the way; the categories come before the list in the page as on the screen
// (left of it, above it on a phone); "Load older" keeps focus while a page loads and hands it to
// "That's everything." when the last page comes, instead of dropping it on <body>.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolations, waitForLoaded } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { freePort, missingBrowser } from './support.ts';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
/** Over two pages of 50: "Load older" loads one more page, then the last. */
const EVENT_COUNT = 110;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

/** What has focus, in words: "body", "card", "category <name>", "end" or the control's name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return 'body';
    if (active.matches('article.event')) return 'card';
    if (active.closest('article.event')) return 'inside a card';
    if (active.matches('button.category')) return `category ${active.querySelector('.category-name')?.textContent ?? ''}`;
    if (active.matches('.feed-end')) return 'end';
    if (active.id === 'feed-search') return 'search';
    return (active.getAttribute('aria-label') || active.textContent || active.tagName).replace(/\s+/g, ' ').trim();
  });
}

/** Tab from where focus is until it leaves the page (headless Chromium then focuses <body>). */
async function onePass(page: Page): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < 80 && stops.at(-1) !== 'body'; i++) {
    await page.keyboard.press('Tab');
    // Two frames, as a person's next key would come: what the focus caused (scrolling into view,
    // the infinite scroll's observer) happens while that stop has it, not after the next Tab.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    stops.push(await focused(page));
  }
  return stops;
}

describe("the feed's Tab order", { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Feed Tab Order Org',
      port,
      viewport: SIZES.desktop,
      timeoutMs: 10_000,
      seed: async (api) => {
        project = (await api('POST', '/api/projects', { name: 'Tab order' })).body.id;
        const now = Math.floor(Date.now() / 1000);
        const events = Array.from({ length: EVENT_COUNT }, (_, i) => ({
          project,
          category: ['orders', 'signups', 'visits'][i % 3],
          title: `Event ${i}`,
          created_at: now - 1000 + i,
        }));
        const reply = await api('POST', '/api/events/batch', { events });
        assert.ok(reply.status < 300, JSON.stringify(reply.body));
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    it(`${size}: sidebar first, one pass reaches "Load older", no stop on <body>`, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/app/p/${project}`);
      const cards = page.locator('article.event');
      await cards.nth(49).waitFor();
      await page.getByRole('button', { name: 'Load older events' }).waitFor();
      assert.equal(await cards.count(), 50);

      // The categories come before the list in the page, and on screen: left of it, or above it on a phone.
      const panel = (await page.locator('.category-panel').boundingBox())!;
      const list = (await page.locator('section.feed').boundingBox())!;
      const first = await page.evaluate(() => {
        const aside = document.querySelector('.category-panel')!;
        return Boolean(aside.compareDocumentPosition(document.querySelector('section.feed')!) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      assert.ok(first, 'the categories precede the list in the document');
      if (size === 'desktop') assert.ok(panel.x + panel.width <= list.x, `the sidebar left of the list: ${JSON.stringify([panel, list])}`);
      else assert.ok(panel.y + panel.height <= list.y + 1, `the categories above the list: ${JSON.stringify([panel, list])}`);

      // One pass from the top of the page: <body> only where the page ends.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const stops = await onePass(page);
      assert.equal(stops.at(-1), 'body', stops.join(' | '));
      assert.equal(stops.indexOf('body'), stops.length - 1, `no stop on <body> before the end: ${stops.join(' | ')}`);
      const at = (stop: string) => stops.indexOf(stop);
      assert.deepEqual(
        stops.filter((stop) => stop.startsWith('category ')),
        ['category All events'],
        'one stop for the categories',
      );
      assert.deepEqual(
        stops.filter((stop) => stop === 'card' || stop === 'inside a card'),
        ['card'],
        'one stop for the list',
      );
      assert.ok(at('search') >= 0 && at('search') < at('category All events'), `the search above both: ${stops.join(' | ')}`);
      assert.ok(at('category All events') < at('☆ Favorites only'), `the categories before the filters: ${stops.join(' | ')}`);
      assert.ok(at('☆ Favorites only') < at('card'), stops.join(' | '));
      assert.equal(stops.at(-2), 'Load older events', `"Load older" in the first pass, last: ${stops.join(' | ')}`);
      // Reaching it scrolled it into view, and the page did not change under the keyboard.
      assert.equal(await cards.count(), 50);
      await assertNoAxeViolations(page, `the feed, ${size}`);

      // Arrows move among the categories; Enter chooses; the chosen one is then the Tab stop.
      await page.locator('button.category').first().focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await focused(page), 'category orders');
      await page.keyboard.press('End');
      assert.equal(await focused(page), 'category visits');
      await page.keyboard.press('ArrowUp');
      assert.equal(await focused(page), 'category signups');
      await page.keyboard.press('Home');
      assert.equal(await focused(page), 'category All events');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.waitForURL(/[?&]category=orders/);
      await page.getByRole('heading', { name: '#orders', level: 1 }).waitFor();
      const tabIndexes = await page.locator('button.category').evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).tabIndex));
      assert.deepEqual(tabIndexes, [-1, 0, -1, -1]);
      // The heading changes before the category's events arrive; axe looks once they have (a list
      // still loading is faded, and its old rows fail the contrast rule).
      await page.waitForFunction(() =>
        [...document.querySelectorAll('article.event .chip-category')].every((chip) => chip.getAttribute('title') === 'Show only #orders'),
      );
      await waitForLoaded(page);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await assertNoAxeViolations(page, `the feed filtered by a category, ${size}, ${colorScheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

      // "Load older": Enter loads a page and keeps focus (in view); the last page hands it to "That's everything."
      await page.goto(`${base}/app/p/${project}`);
      await cards.nth(49).waitFor();
      const older = page.getByRole('button', { name: 'Load older events' });
      await older.focus();
      await page.keyboard.press('Enter');
      await cards.nth(99).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === 'Load older events');
      assert.equal(await focused(page), 'Load older events');
      const where = await older.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return {
          top: box.top,
          bottom: box.bottom,
          height: window.innerHeight,
          scrollY: window.scrollY,
          max: document.documentElement.scrollHeight,
          active: document.activeElement === button,
        };
      });
      assert.ok(where.top >= 0 && where.bottom <= where.height + 1, `the focused button is in view: ${JSON.stringify(where)}`);
      await page.keyboard.press('Enter');
      await cards.nth(EVENT_COUNT - 1).waitFor();
      await page.getByText("That's everything.").waitFor();
      await page.waitForFunction(() => document.activeElement?.classList.contains('feed-end'));
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(page), 'card', 'Shift+Tab from the end goes back to the list');
      await assertNoAxeViolations(page, `the end of the feed, ${size}`);
    });
  }
});

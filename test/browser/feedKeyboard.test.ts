// The feed's roving tab index in a browser, at desktop (1440×900) and phone (390×844) widths: Tab
// stops once on the list (the selected card), Down/Up and j/k move between cards, Left/Right move
// among the focused card's links and buttons (all tabindex -1), Tab from any of them leaves the
// list, Enter opens the event; the shortcut sheet says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { freePort, missingBrowser } from './support.ts';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

/** What has focus: "card <title>", "in <title>: <control>" or "outside: <control>". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'body';
    const card = active.closest('article.event');
    const title = card?.querySelector('h3')?.textContent ?? '';
    // What is read out: the text without its aria-hidden parts (a user's initials).
    const spoken = active.cloneNode(true) as Element;
    for (const hidden of spoken.querySelectorAll('[aria-hidden=true]')) hidden.remove();
    const name = (active.getAttribute('aria-label') || spoken.textContent || '').replace(/\s+/g, ' ').trim();
    if (active === card) return `card ${title}`;
    return card ? `in ${title}: ${name}` : `outside: ${name}`;
  });
}

describe('one Tab stop for the feed, arrows within it', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Feed Keyboard Org',
      port,
      viewport: SIZES.desktop,
      timeoutMs: 10_000,
      seed: async (api) => {
        project = (await api('POST', '/api/projects', { name: 'Keyboard' })).body.id;
        const now = Math.floor(Date.now() / 1000);
        for (let i = 0; i < 4; i++) {
          const reply = await api('POST', '/api/events', {
            project,
            category: 'orders',
            title: `Order ${i}`,
            url: `https://shop.example.com/orders/${i}`,
            description: 'Paid by [bank](https://example.com/bank)',
            tags: { plan: 'pro' },
            user_id: `customer-${i}`,
            created_at: now - 100 + i,
          });
          assert.equal(reply.status, 201);
        }
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    it(`${size}: Tab, arrows, j/k, Enter and the shortcut sheet`, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/app/p/${project}`);
      await page.locator('article.event').nth(3).waitFor();

      // From the search box, Tab through the whole page: exactly one stop inside the list.
      await page.getByLabel('Search events').focus();
      const stops: string[] = [];
      // Once round: until focus leaves the page at its end.
      for (let i = 0; i < 60 && stops.at(-1) !== 'body'; i++) {
        await page.keyboard.press('Tab');
        stops.push(await focused(page));
      }
      assert.equal(stops.at(-1), 'body', stops.join('\n'));
      const inList = stops.filter((stop) => !stop.startsWith('outside') && stop !== 'body');
      assert.deepEqual(inList, ['card Order 3'], stops.join('\n'));

      // Back onto the card; Down/Up and j/k move the selection and the single Tab stop.
      const card = page.locator('article.event').first();
      await card.focus();
      assert.equal(await focused(page), 'card Order 3');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focused(page), 'card Order 2');
      await page.keyboard.press('j');
      assert.equal(await focused(page), 'card Order 1');
      await page.keyboard.press('ArrowUp');
      assert.equal(await focused(page), 'card Order 2');
      await page.keyboard.press('k');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focused(page), 'card Order 2');
      const tabIndexes = await page.locator('article.event').evaluateAll((cards) => cards.map((node) => (node as HTMLElement).tabIndex));
      assert.deepEqual(tabIndexes, [-1, 0, -1, -1], 'the focused card alone is in the Tab order');
      assert.equal(await page.locator('article.event-selected h3').textContent(), 'Order 2');

      // Right walks the card's controls in order, Left walks back to the card.
      const walked: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('ArrowRight');
        walked.push(await focused(page));
      }
      const controls = [...new Set(walked)];
      assert.deepEqual(
        controls.map((stop) => stop.replace('in Order 2: ', '')),
        ['Order 2', 'bank', '#orders', 'Filter by tag plan: pro', 'customer-2', 'Add to favorites', 'Copy link to event', 'Delete event'],
      );
      const inside = await page
        .locator('article.event')
        .nth(1)
        .evaluate((node) => [...node.querySelectorAll<HTMLElement>('a[href], button')].map((control) => control.tabIndex));
      assert.ok(
        inside.every((index) => index === -1),
        `every control is tabindex -1: ${inside.join(',')}`,
      );
      for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowLeft');
      assert.equal(await focused(page), 'card Order 2');

      // Tab from a control inside the card leaves the list.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.equal(await focused(page), 'in Order 2: bank');
      await page.keyboard.press('Tab');
      assert.match(await focused(page), /^outside: /);

      // Enter on the card opens the event.
      await page.locator('article.event').nth(1).focus();
      await page.keyboard.press('Enter');
      const detail = page.getByRole('dialog', { name: 'Event details' });
      await detail.getByRole('heading', { name: 'Order 2' }).waitFor();
      await assertNoAxeViolations(page, `the detail, ${size}`);
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'detached' });
      await assertNoAxeViolations(page, `the feed, ${size}`);

      // The shortcut sheet lists the arrows.
      await page.locator('body').click({ position: { x: 2, y: viewport.height - 2 } });
      await page.keyboard.press('?');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      for (const key of ['Tab', 'j / k, ↓ / ↑', '← / →', 'Enter']) await sheet.locator('kbd', { hasText: key }).first().waitFor();
      await assertNoAxeViolations(page, `the shortcut sheet, ${size}`);
      await page.keyboard.press('Escape');
    });
  }
});

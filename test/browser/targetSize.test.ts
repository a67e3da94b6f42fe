// WCAG 2.5.8 (target size, minimum): every visible link, button and field of the feed, the users
// list, a user's profile and the project settings is at least 24×24 CSS px, at desktop
// (1440×900) and phone (390×844) widths. WCAG exempts inline targets, "in a sentence or whose
// size is otherwise constrained by the line-height of non-target text": a link inside running
// text (a paragraph, a list item or a cell with other words around it, an event's description)
// is skipped here for that reason, and so is anything visually hidden until focused (the skip
// link) — nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { freePort, missingBrowser } from './support.ts';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const MIN = 24;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base, ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

/** Every target smaller than 24×24 on the page, described, except the exempt ones (see above). */
async function smallTargets(page: Page): Promise<string[]> {
  // tsx compiles with keepNames, which wraps inner functions in a __name helper the page lacks.
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  return page.evaluate((min) => {
    const TARGETS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"]';
    const describe = (node: Element) =>
      `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` : ''} "${(node.textContent || node.getAttribute('aria-label') || '').trim().slice(0, 40)}"`;
    /** A link in running text: its block holds words besides its own. */
    const inline = (node: Element) => {
      if (node.tagName !== 'A') return false;
      if (node.closest('.markup, .event-description')) return true;
      const block = node.parentElement?.closest('p, li, dd, td, label, figcaption, blockquote');
      if (!block) return false;
      const own = (node.textContent ?? '').trim().length;
      const words = (block.textContent ?? '').replace(/\s+/g, ' ').trim().length;
      return getComputedStyle(node).display === 'inline' && words > own + 3;
    };
    const hidden = (node: Element) => {
      const style = getComputedStyle(node);
      const box = node.getBoundingClientRect();
      // Visually hidden until focused (the skip link): 1 px and clipped.
      return (
        style.visibility === 'hidden' ||
        node.getClientRects().length === 0 ||
        (box.width <= 1 && box.height <= 1) ||
        node.closest('[aria-hidden="true"], [inert]') !== null
      );
    };
    return [...document.querySelectorAll(TARGETS)]
      .filter((node) => !hidden(node) && !inline(node))
      .map((node) => ({ node, box: node.getBoundingClientRect() }))
      .filter(({ box }) => box.width < min - 0.01 || box.height < min - 0.01)
      .map(({ node, box }) => `${describe(node)}: ${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
  }, MIN);
}

describe('every target is at least 24×24 CSS px', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';

  before(async () => {
    // Feed cards fade in (the fixture turns motion down); axe measures contrast on the settled page, not halfway through the fade.
    browser = await openSignedIn(t, {
      organization: 'Target Size Org',
      port,
      viewport: SIZES.desktop,
      timeoutMs: 10_000,
      seed: async (api) => {
        project = (await api('POST', '/api/projects', { name: 'Targets' })).body.id;
        const post = async (event: Record<string, unknown>) => assert.equal((await api('POST', '/api/events', { project, ...event })).status, 201);
        await post({
          category: 'orders',
          title: 'Order paid',
          url: 'https://shop.example.com/orders/1',
          description: 'Paid by [bank transfer](https://example.com/bank), see the **receipt**',
          tags: { plan: 'pro', region: 'eu' },
          user_id: 'ann@example.com',
          icon: '💶',
          notify: true,
        });
        await post({ category: 'signups', title: 'New signup', user_id: 'bob', tags: { plan: 'free' } });
        await api('POST', `/api/projects/${project}/destinations`, { name: 'Team chat', url: 'http://127.0.0.1:9/hook', format: 'json' });
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  const pages: Array<[string, string, (page: Page) => Promise<unknown>]> = [
    ['the feed', '', (p) => p.locator('article.event').nth(1).waitFor()],
    ['the users list', '/users', (p) => p.getByRole('link', { name: 'ann@example.com' }).waitFor()],
    ["a user's profile", '/users/ann%40example.com', (p) => p.locator('article.event').first().waitFor()],
    ['the settings', '/settings', (p) => p.getByRole('button', { name: 'Attempt log' }).waitFor()],
  ];

  for (const [size, viewport] of Object.entries(SIZES)) {
    it(`${size}: the feed, users, a profile and settings`, async () => {
      await page.setViewportSize(viewport);
      const found: string[] = [];
      for (const [name, route, ready] of pages) {
        await page.goto(`${base}/app/p/${project}${route}`);
        await ready(page);
        found.push(...(await smallTargets(page)).map((target) => `${name}: ${target}`));
        await assertNoAxeViolations(page, `${name}, ${size}`);
      }
      assert.deepEqual(found, [], `targets under ${MIN}×${MIN} px at ${size} width:\n${found.join('\n')}`);
    });
  }
});

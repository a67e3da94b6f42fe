// Event descriptions in a real browser: the CommonMark subset renders as elements, raw HTML and
// unsafe links stay text, and a long code block scrolls inside itself on a phone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, missingBrowser } from './support.ts';

const t = useTestApp();

const DESCRIPTION = [
  'Checkout **failed** for *one* customer: `PaymentDeclined` from _stripe_.',
  '',
  '- retried `3` times',
  '- see [the runbook](https://example.com/runbook) or [this](javascript:alert(1))',
  '',
  '1. open the order',
  '2. refund it',
  '',
  '```',
  `Error: card_declined at charge (/srv/app/node_modules/payments/lib/charge.js:42:17) ${'x'.repeat(200)}`,
  '```',
  '<img src=x onerror="window.__injected = true"> <b>not bold</b>',
].join('\n');

describe('event descriptions in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let projectId = '';

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Markup Browser Org',
      viewport: { width: 390, height: 844 },
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Markup shop' })).body.id;
        const created = await api('POST', '/api/events', { project: projectId, category: 'errors', title: 'Checkout failed', description: DESCRIPTION });
        assert.equal(created.status, 201);
      },
    });
    ({ base, page } = browser);
  });

  after(async () => {
    await browser?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`renders the markup subset as elements, never HTML (${theme})`, async () => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`${base}/app/p/${projectId}`);
      const markup = page.locator('.markup').filter({ hasText: 'Checkout' });
      await markup.waitFor();
      assert.equal(await markup.locator('strong').first().textContent(), 'failed');
      assert.deepEqual(await markup.locator('em').allTextContents(), ['one', 'stripe']);
      assert.deepEqual(await markup.locator('code.markup-code').allTextContents(), ['PaymentDeclined', '3']);
      assert.equal(await markup.locator('ul > li').count(), 2);
      assert.deepEqual(await markup.locator('ol > li').allTextContents(), ['open the order', 'refund it']);
      assert.equal(await markup.getByRole('link', { name: 'the runbook' }).getAttribute('href'), 'https://example.com/runbook');
      assert.equal(await markup.locator('a[href^="javascript"]').count(), 0);
      await markup.getByText('[this](javascript:alert(1))').waitFor();
      assert.match((await markup.locator('pre').textContent()) ?? '', /^Error: card_declined/);
      await markup.getByText('<img src=x onerror="window.__injected = true"> <b>not bold</b>').waitFor();
      assert.equal(await markup.locator('img, b').count(), 0);
      assert.equal(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected), undefined);
      assert.ok(!((await markup.textContent()) ?? '').includes('`'), 'no raw backticks');
      // The long code line scrolls inside its block; the page itself never scrolls sideways.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll');
      fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
      await markup.screenshot({ path: path.join(ROOT, 'test-results', `markup-phone-${theme}.png`) });
      assert.deepEqual(browser.pageErrors, []);
    });
  }
});

// WCAG AA contrast and target size on every dashboard page, light and dark, desktop and phone,
// measured in Debian's chromium: each visible piece of text against the background it is
// painted on, each interactive element against 24x24 px (or WCAG 2.5.8's spacing exception).
// The failures, if any, are written to test-results/accessibility.json.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { auditPage, type Failure } from './accessibilityAudit.ts';
import { waitForLoaded } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, missingBrowser, openBrowser } from './support.ts';

const t = useTestApp();
const RESULTS = path.join(ROOT, 'test-results');

const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const THEMES = ['light', 'dark'] as const;

describe('contrast and target size on every page', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let projectId = '';
  const failures: Failure[] = [];

  before(async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    browser = await openSignedIn(t, {
      organization: 'Contrast Org',
      monthlyEventCap: 1000,
      viewport: VIEWPORTS.desktop,
      timeoutMs: 10000,
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Web shop' })).body.id;
        // Every kind of thing a page can show: notify badges, tags, users, insights, hooks, destinations.
        for (let index = 0; index < 6; index++) {
          await api('POST', '/api/events', {
            project: projectId,
            category: index % 2 ? 'payments' : 'signups',
            title: index % 2 ? `Payment #${index}` : `New signup #${index}`,
            description: 'Paid **€20** with `card`',
            icon: index % 2 ? '💰' : '🎉',
            notify: index === 1,
            tags: { plan: 'pro', seats: index },
            userId: `user-${index % 3}`,
          });
        }
        await api('POST', '/api/insight', { project: projectId, title: 'Revenue', value: 1234.5, icon: '💶' });
        await api('POST', `/api/projects/${projectId}/hooks`, { name: 'Stripe', category: 'payments' });
        await api('POST', `/api/projects/${projectId}/destinations`, { name: 'Team chat', url: 'https://example.com/hook', format: 'json' });
      },
    });
    ({ base, page } = browser);
  });

  after(async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'accessibility.json'), `${JSON.stringify(failures, null, 2)}\n`);
    await browser?.close();
  });

  const pages = () =>
    [
      ['Projects', '/app/projects', 'Projects'],
      ['Organization', '/app/organization', 'Organization'],
      ['Members', '/app/members', 'Members'],
      ['API keys', '/app/api', 'API keys'],
      ['Export & import', '/app/transfer', 'Export & import'],
      ['Feed', `/app/p/${projectId}`, 'Feed'],
      ['Insights', `/app/p/${projectId}/insights`, 'Insights'],
      ['Users', `/app/p/${projectId}/users`, 'Users'],
      ['Charts', `/app/p/${projectId}/charts`, 'Charts'],
      ['Alerts', `/app/p/${projectId}/alerts`, 'Alerts'],
      ['Funnels', `/app/p/${projectId}/funnels?step=signups&step=payments%7Cplan%3Apro&window=604800&days=30`, 'Funnels'],
      ['Playground', `/app/p/${projectId}/playground`, 'Playground'],
      ['Settings', `/app/p/${projectId}/settings`, 'Settings'],
    ] as const;

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`passes at ${viewportName} size in the ${theme} theme`, async () => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        const found: Failure[] = [];
        for (const [name, url, heading] of pages()) {
          await page.goto(`${base}${url}`);
          await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
          // Loading placeholders gone: the page shows what it loaded.
          await waitForLoaded(page);
          await page.waitForTimeout(150);
          for (const failure of await auditPage(page)) found.push({ ...failure, page: name, theme, viewport: viewportName });
          if (name === 'API keys' || name === 'Settings') {
            const slug = name.toLowerCase().replace(/\W+/g, '-');
            await page.screenshot({ path: path.join(RESULTS, `a11y-${slug}-${viewportName}-${theme}.png`) });
          }
        }
        failures.push(...found);
        const summary = found.map((f) => `${f.page}: ${f.kind} ${f.element} ${f.detail}`).join('\n');
        assert.equal(found.length, 0, `${found.length} failures:\n${summary}`);
      });
    }
  }

  // What appears only after a click: the phone menu, a dialog with a secret, an error beside its field.
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    it(`passes with a menu, a dialog and a field error open at ${viewportName} size, in both themes`, async () => {
      await page.setViewportSize(viewport);
      const found: Failure[] = [];
      const check = async (state: string, theme: string) => {
        for (const failure of await auditPage(page)) found.push({ ...failure, page: state, theme, viewport: viewportName });
      };
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.goto(`${base}/app/api`);
        await page.getByTestId('key-row').first().waitFor();
        if (viewportName === 'phone') {
          await page.getByRole('button', { name: 'Menu' }).click();
          await page.getByRole('link', { name: 'Organization' }).waitFor();
          await check('Menu open', theme);
          await page.getByRole('button', { name: 'Menu' }).click();
        }
        await page.getByRole('button', { name: 'Create API key' }).click();
        const dialog = page.getByRole('dialog', { name: 'Your new API key' });
        await dialog.getByRole('button', { name: 'Reveal API key' }).click();
        await check('New key dialog', theme);
        await dialog.getByRole('button', { name: 'I have saved it' }).click();
        await dialog.waitFor({ state: 'detached' });

        await page.goto(`${base}/app/projects`);
        await page.getByLabel('New project name').fill('x'.repeat(201));
        await page.getByRole('button', { name: 'Create project' }).click();
        await page.getByTestId('name-error').waitFor();
        await check('Projects with a field error', theme);
      }
      failures.push(...found);
      const summary = found.map((f) => `${f.page}: ${f.kind} ${f.element} ${f.detail}`).join('\n');
      assert.equal(found.length, 0, `${found.length} failures:\n${summary}`);
    });
  }

  it('opens with a skip link to the page, and keeps a short header at the top of a phone', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${base}/app/p/${projectId}`);
    await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
    // Counted once the events are there: tabbing through a feed still loading finds none.
    await page.locator('article.event').first().waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content', 'the first Tab stop');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'MAIN');
    // From the page's start, the first event is a few Tab presses away (it took 21).
    let presses = 0;
    while (presses < 12 && !(await page.evaluate(() => document.activeElement?.closest('article.event') !== null))) {
      await page.keyboard.press('Tab');
      presses++;
    }
    assert.ok(presses <= 8, `the first event took ${presses} Tab presses after the skip link`);

    const headerBottom = () => page.evaluate(() => document.querySelector('.project-bar')!.getBoundingClientRect().bottom);
    const before = await headerBottom();
    assert.ok(before <= 110, `the header (topbar and project tabs) takes ${before} px`);
    await page.evaluate(() => document.querySelector('main')!.style.setProperty('min-height', '3000px'));
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 500);
    assert.equal(await page.evaluate(() => document.querySelector('.topbar')!.getBoundingClientRect().top), 0, 'the header stays');
    assert.equal(await headerBottom(), before, 'the project tabs stay right below it');

    // The organization links are one tap away in the menu, which opens over the page.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.screenshot({ path: path.join(RESULTS, 'a11y-phone-menu.png') });
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'API keys' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'false', 'following a link closes it');
  });

  it('the signed-out page passes too, in both themes', async () => {
    // A context of its own, never signed in: the fixture's contexts all are.
    const signedOut = await openBrowser({ viewport: VIEWPORTS.phone });
    try {
      const found: Failure[] = [];
      for (const theme of THEMES) {
        await signedOut.page.emulateMedia({ colorScheme: theme });
        await signedOut.page.goto(`${base}/app/`);
        await signedOut.page.getByRole('heading', { name: 'Sign in' }).waitFor();
        for (const failure of await auditPage(signedOut.page)) found.push({ ...failure, page: 'Sign in', theme, viewport: 'phone' });
      }
      failures.push(...found);
      assert.deepEqual(found, []);
    } finally {
      await signedOut.close();
    }
  });
});

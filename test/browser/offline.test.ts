// The dashboard installs as an app that opens offline (issue "Hardening and polish", dashboard
// defect 9): the service worker is registered on every load, controls /app/, keeps the shell and
// an offline page, and never answers /api from a cache. Desktop, then the offline page at phone size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { axeViolations, watchCsp } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

const t = useTestApp();

describe('the dashboard offline', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let cspViolations: string[] = [];

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Offline Org',
      viewport: { width: 1440, height: 900 },
      timeoutMs: 15_000,
      // The CSP is watched from the sign-in page on.
      beforeSignIn: (page) => {
        cspViolations = watchCsp(page);
      },
      seed: async (api) => {
        await api('POST', '/api/projects', { name: 'Home' });
      },
    });
    ({ base, page } = browser);
  });
  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
    assert.deepEqual(cspViolations, []);
  });

  it('registers the service worker on load and caches the shell, never an /api answer', async () => {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    assert.match(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''), /\/app\/sw\.js$/);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    assert.ok(cached.includes('/app/'), `the shell is cached: ${cached.join(', ')}`);
    assert.ok(cached.includes('/app/offline.html'));
    assert.ok(
      cached.some((url) => /^\/app\/assets\/index-.*\.js$/.test(url)),
      'the shell script is cached',
    );
    assert.deepEqual(
      cached.filter((url) => url.startsWith('/api')),
      [],
    );
  });

  it('offline, a reload opens the cached shell, which says so; /api is not answered from a cache', async () => {
    await browser.context.setOffline(true);
    await page.goto(`${base}/app/projects`);
    await page.getByRole('heading', { name: 'Eventlog is not reachable' }).waitFor();
    await page.getByText('You are offline.').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    const answer = await page.evaluate(async () => {
      try {
        const response = await fetch('/api/session');
        return `answered ${response.status}`;
      } catch {
        return 'failed';
      }
    });
    assert.equal(answer, 'failed', 'an /api request offline fails rather than coming from a cache');

    // Back online, the page loads by itself.
    await browser.context.setOffline(false);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  });

  it('without a cached shell, offline navigation shows the offline page (desktop and phone)', async () => {
    await page.evaluate(async () => {
      for (const name of await caches.keys()) await (await caches.open(name)).delete('/app/');
    });
    await browser.context.setOffline(true);
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/app/members`);
      await page.getByRole('heading', { name: 'You are offline', level: 1 }).waitFor();
      assert.equal(await page.title(), 'Offline · Eventlog');
      // The stylesheet came from the cache too.
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth), '576px');
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
      assert.deepEqual(await axeViolations(page), []);
    }
    await browser.context.setOffline(false);
    await page.getByRole('link', { name: 'Open Eventlog' }).click();
    await page
      .getByRole('heading', { name: 'Feed' })
      .or(page.getByRole('heading', { name: 'Projects', level: 1 }))
      .first()
      .waitFor();
  });
});

// The dashboard installs as an app that opens offline (issue "Hardening and polish", dashboard
// defect 9): the service worker is registered on every load, controls /app/, keeps the shell and
// an offline page, and never answers /api from a cache. Desktop, then the offline page at phone size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { OPERATOR } from '../../src/context.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { useTestApp } from '../helpers.ts';
import { axeViolations, watchCsp } from './pageChecks.ts';
import { type OpenBrowser, PASSWORD, apiWithKey, ensureDashboardBuilt, missingBrowser, openBrowser, signIn } from './support.ts';

const t = useTestApp();

describe('the dashboard offline', { skip: missingBrowser }, () => {
  let browser: OpenBrowser;
  let page: Page;
  let base = '';
  let cspViolations: string[] = [];

  before(async () => {
    ensureDashboardBuilt();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
    const organization = await createOrganization({ ctx: t.operator, input: { name: 'Offline Org' } });
    const email = `offline-${Date.now()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: organization.id, email, password: PASSWORD } });
    const apiKey = (await createKey({ ctx: { services: t.services, organizationId: organization.id, actor: OPERATOR }, input: { name: 'Setup' } })).key;
    await apiWithKey(
      () => base,
      () => apiKey,
    )('POST', '/api/projects', { name: 'Home' });
    browser = await openBrowser({ viewport: { width: 1440, height: 900 }, timeoutMs: 15_000 });
    page = browser.page;
    cspViolations = watchCsp(page);
    await signIn(page, base, email);
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

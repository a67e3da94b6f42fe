// The Groups page and a group's page in a real browser, at 1440×900 and 390×844
// (both in groups.test.ts): search, sorting, property
// columns, a group's users and events, the feed's group chip and a user's groups, each page
// checked with axe and for sideways scrolling.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

export function groupsSuite(t: TestApp, size: string, viewport: { width: number; height: number }): void {
  describe(`the Groups pages (${size})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let base = '';
    let projectId = '';
    const names = () => page.locator('.group-table .group-link').allTextContents();
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    before(async () => {
      browser = await openSignedIn(t, {
        organization: 'Groups Org',
        viewport,
        seed: async (api) => {
          projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
          const now = Math.floor(Date.now() / 1000);
          for (const [group, user, properties] of [
            ['acme', 'ann', { name: 'Acme Inc', plan: 'pro', seats: 12 }],
            ['acme', 'bob', {}],
            ['globex', 'cid', { name: 'Globex', plan: 'free' }],
          ] as const) {
            assert.equal((await api('POST', '/api/group', { project: projectId, group_id: group, user_id: user, properties })).status, 200);
          }
          await api('POST', '/api/events', { project: projectId, category: 'billing', title: 'Ann paid', user_id: 'ann', created_at: now - 600 });
          await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Cid signed up', user_id: 'cid', created_at: now - 60 });
        },
      });
      ({ base, page } = browser);
    });
    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    it('lists groups by last seen, sorts by users and name, searches, and shows picked property columns', async () => {
      await page.goto(`${base}/app/p/${projectId}/groups`);
      await page.getByRole('heading', { name: 'Groups', exact: true }).waitFor();
      await page.locator('.group-table .group-link').first().waitFor();
      assert.deepEqual(await names(), ['Globex', 'Acme Inc']);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);

      await page.getByLabel('Sort by').selectOption('users');
      await page.waitForURL(/[?&]sort=users/);
      await page.waitForFunction(() => document.querySelector('.group-table .group-link')?.textContent === 'Acme Inc');
      await page.getByLabel('Sort by').selectOption('name');
      await page.waitForURL(/[?&]sort=name/);
      await page.waitForFunction(() => document.querySelector('.group-table .group-link')?.textContent === 'Acme Inc');
      assert.deepEqual(await names(), ['Acme Inc', 'Globex']);

      await page.getByLabel('plan').check();
      await page.waitForURL(/[?&]column=plan/);
      await page.getByRole('columnheader', { name: 'plan' }).waitFor();
      assert.deepEqual(await page.locator('.group-table tbody tr td:nth-child(4)').allTextContents(), ['pro', 'free']);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);

      await page.getByLabel('Search groups').fill('glob');
      await page.waitForURL(/[?&]search=glob/);
      await page.waitForFunction(() => document.querySelectorAll('.group-table .group-link').length === 1);
      assert.deepEqual(await names(), ['Globex']);
      await page.getByLabel('Search groups').fill('zebra');
      await page.getByRole('status').filter({ hasText: 'No groups match “zebra”' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
    });

    it("opens a group's page: properties, users with when they were last seen, activity and events; the feed chip; a user's groups", async () => {
      await page.goto(`${base}/app/p/${projectId}/groups`);
      await page.getByRole('link', { name: 'Acme Inc' }).click();
      await page.getByRole('heading', { name: 'Acme Inc', level: 1 }).waitFor();
      await page.getByRole('rowheader', { name: 'seats' }).waitFor();
      const members = page.getByRole('list', { name: 'Users of the group' });
      await members.getByRole('link', { name: 'ann' }).waitFor();
      await members.getByRole('link', { name: 'bob' }).waitFor();
      assert.match(await members.locator('li', { has: page.getByRole('link', { name: 'ann' }) }).innerText(), /last seen .* · 1 event$/);
      await page.getByRole('list', { name: 'Recent events of the group' }).getByText('Ann paid').waitFor();
      assert.equal(await page.getByText('Cid signed up').count(), 0);
      await page.getByTestId('user-activity').waitFor();
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);

      await page.getByRole('link', { name: 'Show in the feed' }).click();
      await page.waitForURL(/[?&]group=acme/);
      await page.getByRole('button', { name: 'Remove filter group acme' }).waitFor();
      await page.locator('article.event').first().waitFor();
      assert.equal(await page.locator('article.event').count(), 1);
      assert.deepEqual(await axeViolations(page), []);

      await page.goto(`${base}/app/p/${projectId}/users/ann`);
      const groups = page.getByRole('list', { name: 'Groups of the user' });
      await groups.getByRole('link', { name: 'Acme Inc' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);
    });
  });
}

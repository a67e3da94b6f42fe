// The Groups page and a group's page in a real browser, at 1440×900 and 390×844
// (both in groups.test.ts): search, sorting, property
// columns, a group's users and events, the feed's group chip and a user's groups, each page
// checked with axe and for sideways scrolling. Activity is the newest event (decision 197): the
// pages say "last active", and a group's users are ordered by it, which an identify does not move.
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
            ['acme', 'dee', {}],
            ['globex', 'cid', { name: 'Globex', plan: 'free' }],
          ] as const) {
            assert.equal((await api('POST', '/api/group', { project: projectId, group_id: group, user_id: user, properties })).status, 200);
          }
          await api('POST', '/api/events', { project: projectId, category: 'billing', title: 'Ann paid', user_id: 'ann', created_at: now - 600 });
          await api('POST', '/api/events', { project: projectId, category: 'logins', title: 'Bob logged in', user_id: 'bob', created_at: now - 1200 });
          await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Cid signed up', user_id: 'cid', created_at: now - 60 });
        },
      });
      ({ base, page } = browser);
    });
    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    it('lists groups by last activity, sorts by users and name, searches, and shows picked property columns', async () => {
      await page.goto(`${base}/app/p/${projectId}/groups`);
      await page.getByRole('heading', { name: 'Groups', exact: true }).waitFor();
      await page.locator('.group-table .group-link').first().waitFor();
      assert.deepEqual(await names(), ['Globex', 'Acme Inc']);
      await page.getByRole('columnheader', { name: 'Last active' }).waitFor();
      assert.equal(await page.getByLabel('Sort by').locator('option:checked').textContent(), 'Last active');
      assert.equal(
        await page
          .locator('main')
          .getByText(/last seen/i)
          .count(),
        0,
        'the newest event is not called "last seen"',
      );
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

    it("opens a group's page: properties, users by last activity, activity and events; the feed chip; a user's groups", async () => {
      await page.goto(`${base}/app/p/${projectId}/groups`);
      await page.getByRole('link', { name: 'Acme Inc' }).click();
      await page.getByRole('heading', { name: 'Acme Inc', level: 1 }).waitFor();
      await page.getByRole('rowheader', { name: 'seats' }).waitFor();
      const members = page.getByRole('list', { name: 'Users of the group' });
      const memberNames = () => members.locator('li a').allTextContents();
      const facts = (name: string) =>
        members
          .locator('li', { has: page.getByRole('link', { name, exact: true }) })
          .getByTestId('member-facts')
          .innerText();
      await members.getByRole('link', { name: 'dee' }).waitFor();
      assert.deepEqual(await memberNames(), ['ann', 'bob', 'dee'], 'newest event first; a user without events last');
      assert.match(await facts('ann'), /^last active .+ · 1 event$/);
      assert.equal(await facts('dee'), 'no events yet');
      await page.locator('.user-facts dt', { hasText: 'Last active' }).waitFor();
      assert.equal(
        await page
          .locator('main')
          .getByText(/last seen/i)
          .count(),
        0,
        'the newest event is not called "last seen"',
      );

      // Bob, the older member, is identified now (a sync of properties): he is named, not moved.
      assert.equal((await browser.api('POST', '/api/identify', { project: projectId, user_id: 'bob', properties: { name: 'Bob Stone' } })).status, 200);
      await page.reload();
      await members.getByRole('link', { name: 'Bob Stone' }).waitFor();
      assert.deepEqual(await memberNames(), ['ann', 'Bob Stone', 'dee']);
      assert.deepEqual(await members.getByTestId('user-initials').allTextContents(), ['A', 'BS', 'D']);
      assert.match(await facts('Bob Stone'), /^last active .+ · 1 event$/);
      await page.getByRole('list', { name: 'Recent events of the group' }).getByText('Ann paid').waitFor();
      assert.equal(await page.getByText('Cid signed up').count(), 0);
      await page.getByTestId('user-activity').waitFor();
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);

      await page.getByRole('link', { name: 'Show in the feed' }).click();
      await page.waitForURL(/[?&]group=acme/);
      await page.getByRole('button', { name: 'Remove filter group acme' }).waitFor();
      await page.locator('article.event').nth(1).waitFor();
      assert.equal(await page.locator('article.event').count(), 2);
      assert.deepEqual(await axeViolations(page), []);

      await page.goto(`${base}/app/p/${projectId}/users/ann`);
      const groups = page.getByRole('list', { name: 'Groups of the user' });
      await groups.getByRole('link', { name: 'Acme Inc' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noSidewaysScroll(), true);
    });
  });
}

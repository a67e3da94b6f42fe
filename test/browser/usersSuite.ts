// The Users page as a new user meets it (issue "Hardening and polish", dashboard defect 5), at one
// window size in turn (both in usersPolish.test.ts; one organization, each size signed in in a
// context of its own, as the suite changes nothing it looks at): a search without a match
// says so (not "No users yet"), the search is kept in the address, users are titled by their
// `name` property when they have one, and a profile gives exact first-seen and last-active dates
// (the newest event, not the newest identify: decision 197). Then:
// the list sorts (last seen, first seen, most events) with the order in the address, and a
// profile shows its properties as a key/value table (long values wrap) and a 30-day activity
// chart, light and dark.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { DESKTOP, PHONE, type SignedInBrowser, signedInAtEachSize } from './signedInBrowser.ts';
import { ROOT, missingBrowser } from './support.ts';

const DATE_TIME = /\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}, \d{1,2}:\d{2}:\d{2}/;

const LONG_VALUE = `https://example.com/${'a-very-long-path-segment-without-spaces-'.repeat(6)}end`;

export function usersSuite(t: TestApp): void {
  let projectId = '';
  const signIn = signedInAtEachSize(t, {
    organization: 'Users Polish Org',
    seed: async (api) => {
      projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
      const now = Math.floor(Date.now() / 1000);
      await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Signed up', user_id: 'u-4821', created_at: now - 3 * 86_400 });
      await api('POST', '/api/events', { project: projectId, category: 'billing', title: 'Paid', user_id: 'u-4821', created_at: now - 3600 });
      await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Signed up', user_id: 'bob' });
      assert.equal(
        (
          await api('POST', '/api/identify', {
            project: projectId,
            user_id: 'u-4821',
            properties: { name: 'Ann Smith', plan: 'pro', website: LONG_VALUE, seats: 12 },
          })
        ).status,
        200,
      );
    },
  });
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    describe(`the Users page (${size})`, { skip: missingBrowser }, () => {
      let browser: SignedInBrowser;
      let page: Page;
      let base = '';
      const api: SignedInBrowser['api'] = (...request) => browser.api(...request);
      const names = () => page.locator('.user-list .project-link').allTextContents();
      const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

      before(async () => {
        // Rows fade in (the fixture turns motion down); axe measures contrast on the settled page.
        browser = await signIn(viewport);
        ({ base, page } = browser);
      });
      after(async () => {
        await browser?.close();
        assert.deepEqual(browser?.pageErrors ?? [], []);
      });

      it('titles users by their name property, with the id beside it; others by their id', async () => {
        await page.goto(`${base}/app/p/${projectId}/users`);
        await page.locator('.user-list .project-link').first().waitFor();
        // By last activity: Bob's event is the newest, Ann's later identify is not activity (issue 49, point 9).
        assert.deepEqual(await names(), ['bob', 'Ann Smith']);
        assert.match(await page.locator('.user-list li').first().innerText(), /bob.*1 event · last active/s);
        const ann = page.locator('.user-list li', { has: page.getByRole('link', { name: 'Ann Smith' }) });
        assert.match(await ann.innerText(), /u-4821 · 2 events/);
        // Properties are one short line, not a pile of chips: the name is the title, long values are cut.
        assert.equal(await ann.locator('.chip').count(), 0);
        const summary = ann.getByTestId('user-property-summary');
        assert.deepEqual(await summary.locator('.user-property').allInnerTexts(), ['plan pro', `website ${LONG_VALUE}`, 'seats 12']);
        assert.equal(
          await summary
            .locator('.user-property')
            .nth(1)
            .evaluate((el) => el.scrollWidth > el.clientWidth),
          true,
        );
        assert.deepEqual(await axeViolations(page), []);
        assert.equal(await noSidewaysScroll(), true);
      });

      it('sorts by first seen or most events, keeping the order in the address through a reload', async () => {
        const sortBy = page.getByLabel('Sort by');
        await sortBy.selectOption('firstSeen');
        await page.waitForURL(/[?&]sort=firstSeen/);
        await page.waitForFunction(() => document.querySelector('.user-list .project-link')?.textContent === 'bob');
        assert.deepEqual(await names(), ['bob', 'Ann Smith']);
        assert.match(await page.locator('.user-list li').first().innerText(), /first seen/);
        await page.reload();
        await page.locator('.user-list .project-link').first().waitFor();
        assert.equal(await sortBy.inputValue(), 'firstSeen');
        assert.deepEqual(await names(), ['bob', 'Ann Smith']);
        assert.deepEqual(await axeViolations(page), []);

        await sortBy.selectOption('events');
        await page.waitForURL(/[?&]sort=events/);
        await page.waitForFunction(() => document.querySelector('.user-list .project-link')?.textContent === 'Ann Smith');
        assert.deepEqual(await names(), ['Ann Smith', 'bob']);
        await sortBy.selectOption('lastActive');
        await page.waitForFunction(() => !window.location.search.includes('sort='));
        assert.equal(await noSidewaysScroll(), true);
      });

      it('a search without a match says so, and the search is kept in the address through a reload', async () => {
        await page.getByLabel('Search users').fill('zebra');
        await page.waitForURL(/[?&]search=zebra/);
        const status = page.getByRole('status').filter({ hasText: 'No users match “zebra”' });
        await status.waitFor();
        assert.equal(await page.getByText('No users yet').count(), 0);
        assert.deepEqual(await axeViolations(page), []);
        await page.reload();
        await status.waitFor();
        assert.equal(await page.getByLabel('Search users').inputValue(), 'zebra');

        await page.getByLabel('Search users').fill('pro');
        await page.waitForURL(/[?&]search=pro/);
        await page.waitForFunction(() => document.querySelectorAll('.user-list .project-link').length === 1);
        assert.deepEqual(await names(), ['Ann Smith']);
        await page.getByLabel('Search users').fill('');
        await page.waitForFunction(() => document.querySelectorAll('.user-list .project-link').length === 2);
        assert.doesNotMatch(page.url(), /search=/);
        await page.getByLabel('Search users').fill('pro');
        await page.waitForURL(/[?&]search=pro/);
      });

      it("a profile is titled by the name and gives exact first-seen and last-active dates; Back keeps the list's search", async () => {
        await page.getByRole('link', { name: 'Ann Smith' }).click();
        await page.getByRole('heading', { name: 'Ann Smith', level: 1 }).waitFor();
        await page.locator('article.event').nth(1).waitFor();
        const profile = (await api('GET', `/api/users/u-4821?project=${projectId}`)).body as { firstSeen: string; lastSeen: string };
        const newest = (await api('GET', `/api/events?project=${projectId}&user_id=u-4821`)).body.events[0] as { createdAt: string };
        // "Last active" is the newest event, not the later identify the API's lastSeen counts (decision 197).
        assert.notEqual(newest.createdAt, profile.lastSeen);
        for (const [testId, iso] of [
          ['first-seen', profile.firstSeen],
          ['last-active', newest.createdAt],
        ] as const) {
          const cell = page.getByTestId(testId);
          assert.match(await cell.innerText(), DATE_TIME, testId);
          assert.equal(await cell.locator('time').first().getAttribute('datetime'), iso, testId);
        }
        assert.match(await page.getByTestId('first-seen').innerText(), /3 days ago/);
        assert.match(await page.getByTestId('last-active').innerText(), /1 hour ago/);
        const facts = await page.locator('.user-facts dt').allTextContents();
        assert.ok(facts.includes('Last active') && !facts.includes('Last seen'), facts.join(' | '));
        assert.match(await page.getByRole('region', { name: 'Profile' }).innerText(), /User id\s+u-4821/);
        // Properties as a key/value table, a long value wrapping inside its cell.
        const table = page.getByTestId('user-properties');
        assert.equal(await table.getByRole('rowheader', { name: 'plan' }).count(), 1);
        assert.equal(await table.getByRole('row', { name: 'plan pro' }).count(), 1);
        assert.equal(await table.getByRole('row', { name: 'seats 12' }).count(), 1);
        assert.equal(await table.getByRole('cell', { name: LONG_VALUE }).count(), 1);
        assert.equal(await table.evaluate((node) => node.scrollWidth <= node.clientWidth + 1), true, 'the long value wraps');
        // Activity: 30 day bars, one for each of the two days with an event, and the same in words.
        const summary = await page.getByTestId('user-activity-summary').innerText();
        assert.match(summary, /^2 events in the last 30 days, on 2 different days; busiest day \d{1,2} \w+ with 1 event$/);
        assert.equal(await page.getByRole('img', { name: summary }).count(), 1);
        assert.equal(await page.locator('.activity-bar').count(), 30);
        assert.equal(await page.locator('.activity-bar[data-count="1"]').count(), 2);
        assert.deepEqual(await axeViolations(page), []);
        assert.equal(await noSidewaysScroll(), true);
        await page.goBack();
        await page.waitForURL(/\/users\?search=pro$/);
        assert.equal(await page.getByLabel('Search users').inputValue(), 'pro');
        await page.waitForFunction(() => document.querySelectorAll('.user-list .project-link').length === 1);
      });

      it('the profile and the sorted list pass axe in the dark theme too, without sideways scrolling', async () => {
        await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
        try {
          await page.goto(`${base}/app/p/${projectId}/users/u-4821`);
          await page.getByTestId('user-properties').waitFor();
          await page.getByTestId('user-activity').waitFor();
          assert.deepEqual(await axeViolations(page), []);
          assert.equal(await noSidewaysScroll(), true);
          fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
          await page.screenshot({ path: path.join(ROOT, 'test-results', `user-profile-${size}-dark.png`), fullPage: true });
          await page.goto(`${base}/app/p/${projectId}/users?sort=events`);
          await page.locator('.user-list .project-link').first().waitFor();
          assert.equal(await page.getByLabel('Sort by').inputValue(), 'events');
          assert.deepEqual(await axeViolations(page), []);
          assert.equal(await noSidewaysScroll(), true);
        } finally {
          await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
        }
      });
    });
  }
}

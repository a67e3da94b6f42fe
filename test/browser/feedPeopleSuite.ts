// The feed's cards as people trust them (issue "the dashboard's 23 defects", points 6, 7, 22 and
// leftovers of 23), desktop and phone size in feedPeople.test.ts (one organization, each size
// signed in in a context of its own: the suite changes nothing it looks at), axe-clean
// in light and dark: a user shown by name with initials, the time never under the hover toolbar,
// a category initial for an event without an icon, "1:09 PM" without a leading zero, "Favorites
// only" a toggle button, "Alert me…" a pill, not a link; the only owner not offered "Remove"; the
// project switcher inviting, not demanding, on organization pages; the profile's initials and words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { assertNoAxeViolationsInBothThemes } from './pageChecks.ts';
import { DESKTOP, PHONE, type SignedInBrowser, signedInAtEachSize } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

export function feedPeopleSuite(t: TestApp): void {
  let projectId = '';
  // The clock time on the cards is read in en-US ("1:09 PM"): the context's locale is the reader's.
  const signIn = signedInAtEachSize(t, {
    organization: 'Feed People Org',
    locale: 'en-US',
    seed: async (api) => {
      projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
      await api('POST', '/api/identify', { project: projectId, user_id: 'usr_tp69', properties: { name: 'Ada Lovelace' } });
      await api('POST', '/api/identify', { project: projectId, user_id: 'usr_mail', properties: { email: 'grace@example.com' } });
      // Yesterday at 1:09 PM local time: always in the past, and a clock time with one hour digit.
      const at = new Date();
      at.setDate(at.getDate() - 1);
      at.setHours(13, 9, 0, 0);
      const createdAt = Math.floor(at.getTime() / 1000);
      for (const [title, userId] of [
        ['Ada paid', 'usr_tp69'],
        ['Grace paid', 'usr_mail'],
        ['Anon paid', 'usr_none'],
      ] as const) {
        assert.equal(
          (await api('POST', '/api/events', { project: projectId, category: 'payments', title, icon: '💶', user_id: userId, created_at: createdAt })).status,
          201,
        );
      }
      assert.equal((await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Plain event', created_at: createdAt })).status, 201);
    },
  });
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    describe(`people and small things in the feed (${size})`, { skip: missingBrowser }, () => {
      let browser: SignedInBrowser;
      let page: Page;
      let base = '';
      const card = (title: string) => page.locator('article.event', { has: page.getByRole('heading', { name: title, exact: true }) });

      before(async () => {
        browser = await signIn(viewport);
        ({ base, page } = browser);
      });
      after(async () => {
        await browser?.close();
        assert.deepEqual(browser?.pageErrors ?? [], []);
      });

      it('names users on cards, with initials: name, else email, else the id (point 7)', async () => {
        await page.goto(`${base}/app/p/${projectId}`);
        await card('Ada paid').getByTestId('user-name').filter({ hasText: 'Ada Lovelace' }).waitFor();
        assert.equal(await card('Ada paid').getByTestId('user-initials').textContent(), 'AL');
        await card('Grace paid').getByTestId('user-name').filter({ hasText: 'grace@example.com' }).waitFor();
        assert.equal(await card('Grace paid').getByTestId('user-initials').textContent(), 'G');
        assert.equal(await card('Anon paid').getByTestId('user-name').textContent(), 'usr_none');
        assert.ok(!(await page.locator('article.event').allInnerTexts()).some((text) => /\buser usr_/.test(text)), 'no "user <id>"');
        await assertNoAxeViolationsInBothThemes(page, 'the feed');
      });

      it('keeps the time readable under the hover toolbar, and shows small things plainly (points 6, 23)', async () => {
        const ada = card('Ada paid');
        await ada.hover();
        const time = ada.locator('time.event-time');
        const clear = await time.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return element.contains(hit);
        });
        assert.ok(clear, 'the middle of the time is the time, not a toolbar button');
        assert.match((await time.textContent()) ?? '', /^1:09\s?PM$/);
        assert.equal(await card('Plain event').locator('.event-icon').textContent(), 'S', "the category's initial, not a dot");
        const favorites = page.getByRole('button', { name: 'Favorites only' });
        assert.equal(await favorites.getAttribute('aria-pressed'), 'false');
        assert.equal(await page.locator('.filter-chips input[type=checkbox]').count(), 0);
        assert.equal(await page.getByTestId('alert-me').evaluate((link) => getComputedStyle(link).textDecorationLine), 'none');
        await favorites.click();
        await page.waitForURL(/favorited=true/);
        assert.equal(await favorites.getAttribute('aria-pressed'), 'true');
        // The list dims while it reloads: axe reads the colours once it is settled.
        await page.locator('[data-testid="event-list"][aria-busy="false"]').waitFor({ state: 'attached' });
        await page.waitForFunction(() => getComputedStyle(document.querySelector('[data-testid="event-list"]')!).opacity === '1');
        await assertNoAxeViolationsInBothThemes(page, 'the feed, favorites only');
        await favorites.click();
      });

      it('gives the profile initials, room above the journey and plain words (point 22)', async () => {
        await page.goto(`${base}/app/p/${projectId}/users/usr_tp69`);
        await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
        assert.equal(await page.getByTestId('profile-initials').textContent(), 'AL');
        assert.match(await page.getByTestId('user-activity-summary').innerText(), /^1 event in the last 30 days, on 1 day;/);
        const gap = await page.evaluate(() => {
          const heading = [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Journey')!;
          const card = document.querySelector('section[aria-label=Profile]')!;
          return heading.getBoundingClientRect().top - card.getBoundingClientRect().bottom;
        });
        assert.ok(gap >= 16, `the Journey heading is ${gap}px below the card`);
        await assertNoAxeViolationsInBothThemes(page, 'the user profile');
      });

      it("shows each day's count on the projects page's sparkline, which keeps its place (point 15)", async () => {
        await page.goto(`${base}/app/projects`);
        const days = page.getByTestId('sparkline-day');
        await days.first().waitFor({ state: 'attached' });
        assert.equal(await days.count(), 7);
        const titles = await days.evaluateAll((rects) => rects.map((rect) => rect.querySelector('title')?.textContent ?? ''));
        assert.ok(
          titles.every((title) => /^\d{4}-\d{2}-\d{2}: \d+ events?$/.test(title)),
          titles.join(' | '),
        );
        assert.ok(
          titles.some((title) => / [1-9]\d* events?$/.test(title)),
          'the day of the events has its count',
        );
        // The firing alerts have a line of their own, so nothing beside the sparkline can push it.
        const firingLine = await page.evaluate(() => {
          const probe = document.createElement('p');
          probe.className = 'project-firing';
          document.querySelector('.project-activity')?.append(probe);
          const basis = getComputedStyle(probe).flexBasis;
          probe.remove();
          return basis;
        });
        assert.equal(firingLine, '100%');
        await assertNoAxeViolationsInBothThemes(page, 'the projects page');
      });

      it('offers the only owner no "Remove" on their own row, and the switcher invites (point 23)', async () => {
        await page.goto(`${base}/app/members`);
        const row = page.getByTestId('member-row').first();
        await row.getByTestId('only-owner').waitFor();
        assert.equal(await row.getByRole('button', { name: 'Remove' }).count(), 0);
        // On an organization page no project is chosen: the switcher invites ("Go to a project…"),
        // it does not demand ("Choose a project…"), and going changes page.
        const switcher = page.locator('#project-switcher');
        await switcher.waitFor();
        assert.equal(await switcher.locator('option').first().textContent(), 'Go to a project…');
        assert.equal(await switcher.inputValue(), '');
        assert.equal(await page.getByText('Choose a project…').count(), 0);
        await assertNoAxeViolationsInBothThemes(page, 'the members page');
        await switcher.selectOption({ label: 'Shop' });
        await page.waitForURL(`${base}/app/p/${projectId}`);
        await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
        assert.equal(await switcher.locator('option').first().textContent(), 'Shop', 'no invitation once a project is open');
      });
    });
}

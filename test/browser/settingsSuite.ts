// The project's Settings page as a new user meets it (issue "Hardening and polish", dashboard
// defect 6), at desktop and phone size (both in settingsPolish.test.ts),
// light and dark: section links (a column beside the sections on a desktop, one compact block on
// a phone) that work by keyboard and by address (#hooks...); hooks and destinations renamed in
// their rows (a destination's URL too); a destination's categories chosen among the project's
// known ones, a new name still accepted but flagged.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, missingBrowser } from './support.ts';
import { waitUntil } from '../wait.ts';

const SECTIONS = ['General', 'Incoming webhooks', 'Outgoing webhooks', 'Push notifications', 'Delete project'];

export function settingsSuite(t: TestApp, size: 'desktop' | 'phone', viewport: { width: number; height: number }): void {
  describe(`the Settings page (${size})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let base = '';
    let projectId = '';
    let hookId = '';
    let destinationId = '';
    const api: SignedInBrowser['api'] = (...request) => browser.api(...request);
    const settingsUrl = () => `${base}/app/p/${projectId}/settings`;
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    const nav = () => page.getByRole('navigation', { name: 'Settings sections' });
    const hookRow = () => page.getByTestId('hook-row').first();
    const destinationRow = () => page.getByTestId('destination-row').first();

    // An organization per size: the suite renames the hooks and destinations it looks at.
    before(async () => {
      browser = await openSignedIn(t, {
        organization: 'Settings Polish Org',
        viewport,
        seed: async (api) => {
          projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
          for (const category of ['payments', 'signups'])
            assert.equal((await api('POST', '/api/events', { project: projectId, category, title: category })).status, 201);
          hookId = (await api('POST', `/api/projects/${projectId}/hooks`, { name: 'CI', category: 'deploys' })).body.id;
          const destination = await api('POST', `/api/projects/${projectId}/destinations`, {
            name: 'Team chat',
            url: 'http://127.0.0.1:9/chat',
            format: 'json',
          });
          assert.equal(destination.status, 201, JSON.stringify(destination.body));
          destinationId = destination.body.id;
        },
      });
      ({ base, page } = browser);
    });
    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    it('links every section, and a link followed by keyboard lands on its section, named in the address', async () => {
      await page.goto(settingsUrl());
      await hookRow().waitFor();
      // The last link is an owner's, shown once the organization says who is one.
      await nav().getByRole('link', { name: 'Delete project' }).waitFor();
      assert.deepEqual(await nav().getByRole('link').allInnerTexts(), SECTIONS);
      // Keyboard only: focus the first link, Tab to the third, Enter.
      await nav().getByRole('link', { name: 'General' }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Outgoing webhooks');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/settings#destinations$/);
      await page.waitForFunction(() => document.activeElement?.id === 'destinations');
      // The section's link is marked once the page has seen the new address: wait for it, not a tick.
      await waitUntil(async () => (await nav().getByRole('link', { name: 'Outgoing webhooks' }).getAttribute('aria-current')) === 'location', {
        message: 'the Outgoing webhooks link marked as the current location',
      });
      const heading = page.getByRole('heading', { name: 'Outgoing webhooks', level: 2 });
      await page.waitForFunction(() => {
        const top = document.getElementById('destinations-title')?.getBoundingClientRect().top ?? -1;
        return top >= 0 && top < window.innerHeight / 2;
      });
      assert.equal(await heading.isVisible(), true);
      if (size === 'desktop') {
        // The links stay in view beside the sections, however far the page is scrolled.
        const box = await nav().boundingBox();
        assert.ok(box && box.y >= 0 && box.y < viewport.height / 2, JSON.stringify(box));
        assert.ok(box.x + box.width <= ((await heading.boundingBox())?.x ?? 0), 'the links are a column left of the sections');
      } else {
        // One compact block of links, not a column five links tall.
        await page.evaluate(() => window.scrollTo(0, 0));
        const box = await nav().boundingBox();
        assert.ok(box && box.height < 140, JSON.stringify(box));
      }
      assert.equal(await noSidewaysScroll(), true);
    });

    it('opens at the section a shared address names', async () => {
      await page.goto(`${settingsUrl()}#push`);
      await page.waitForFunction(() => {
        const top = document.getElementById('push')?.getBoundingClientRect().top ?? -1;
        return document.activeElement?.id === 'push' && top >= 0 && top < window.innerHeight - 200;
      });
      // The section's link is marked once the page has seen the new address: wait for it, not a tick.
      await waitUntil(async () => (await nav().getByRole('link', { name: 'Push notifications' }).getAttribute('aria-current')) === 'location', {
        message: 'the Push notifications link marked as the current location',
      });
    });

    it('renames an incoming webhook in its row; Escape cancels, a blank name is refused beside the field', async () => {
      await page.goto(`${settingsUrl()}#hooks`);
      await hookRow().getByRole('button', { name: 'Edit name and category of CI' }).click();
      const name = hookRow().getByLabel('Webhook name');
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'editHookName');
      await name.fill('Typo');
      await page.keyboard.press('Escape');
      await hookRow().getByText('CI', { exact: true }).waitFor();
      assert.equal(await hookRow().getByLabel('Webhook name').count(), 0);

      await hookRow().getByRole('button', { name: 'Edit name and category of CI' }).click();
      await name.fill(' ');
      await hookRow().getByRole('button', { name: 'Save', exact: true }).click();
      await hookRow().getByTestId('name-error').waitFor();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await axeViolations(page), []);
      await name.fill('CI deploys');
      await hookRow().getByLabel('Webhook default category').fill('releases');
      await name.press('Enter');
      await hookRow().locator('.row-head').getByText('CI deploys', { exact: true }).waitFor();
      await hookRow().getByText('#releases').waitFor();
      const [saved] = (await api('GET', `/api/projects/${projectId}/hooks`)).body as Array<{ id: string; name: string; category: string }>;
      assert.deepEqual([saved?.id, saved?.name, saved?.category], [hookId, 'CI deploys', 'releases']);
    });

    it('renames a destination and changes its URL in its row', async () => {
      await destinationRow().getByRole('button', { name: 'Edit name and URL of Team chat' }).click();
      await destinationRow().getByLabel('Destination name').fill('Ops chat');
      await destinationRow().getByLabel('Destination URL').fill('http://127.0.0.1:9/ops');
      await destinationRow().getByRole('button', { name: 'Save', exact: true }).click();
      await destinationRow().getByText('http://127.0.0.1:9/ops').waitFor();
      await destinationRow().locator('.row-head').getByText('Ops chat', { exact: true }).waitFor();
      const [saved] = (await api('GET', `/api/projects/${projectId}/destinations`)).body as Array<{ id: string; name: string; url: string }>;
      assert.deepEqual([saved?.id, saved?.name, saved?.url], [destinationId, 'Ops chat', 'http://127.0.0.1:9/ops']);
    });

    it("offers the project's categories for a destination's filter and flags a name no event has", async () => {
      const picker = destinationRow().getByRole('combobox', { name: 'Add a category to categories' });
      await picker.click();
      const known = page.getByRole('listbox', { name: 'Known categories for categories' });
      assert.deepEqual(await known.getByRole('option').locator('.categories-picker-name').allInnerTexts(), ['payments', 'signups']);
      await known.getByRole('option', { name: /payments/ }).click();
      await destinationRow().getByTestId('chosen-category').filter({ hasText: 'payments' }).waitFor();
      assert.equal(await destinationRow().getByTestId('unknown-categories').count(), 0);
      await picker.fill('paymnets');
      await picker.press('Enter');
      const warning = destinationRow().getByTestId('unknown-categories');
      await warning.waitFor();
      assert.match(await warning.innerText(), /No event of this project has the category “paymnets” yet/);
      assert.match(String(await picker.getAttribute('aria-describedby')), new RegExp(String(await warning.getAttribute('id'))));
      assert.deepEqual(await axeViolations(page), []);
      await destinationRow().getByRole('button', { name: 'Save filter' }).click();
      await destinationRow().getByText('Only payments, paymnets').waitFor();
      assert.deepEqual((await api('GET', `/api/projects/${projectId}/destinations`)).body[0].categories, ['payments', 'paymnets']);

      await destinationRow().getByRole('button', { name: 'Remove paymnets' }).click();
      await warning.waitFor({ state: 'detached' });
      await destinationRow().getByRole('button', { name: 'Save filter' }).click();
      await destinationRow().getByText('Only payments', { exact: true }).waitFor();
      assert.deepEqual((await api('GET', `/api/projects/${projectId}/destinations`)).body[0].categories, ['payments']);
      assert.equal(await noSidewaysScroll(), true);
    });

    it('a new destination takes its categories from the same picker', async () => {
      const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add destination' }) });
      await form.getByLabel('Name', { exact: true }).fill('Billing');
      await form.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:9/billing');
      const picker = form.getByRole('combobox', { name: 'Add a category to categories (none: every category)' });
      await picker.fill('sign');
      await page
        .getByRole('listbox')
        .getByRole('option', { name: /signups/ })
        .click();
      await form.getByRole('button', { name: 'Add destination' }).click();
      await page.getByTestId('destination-row').filter({ hasText: 'Billing' }).waitFor();
      const created = ((await api('GET', `/api/projects/${projectId}/destinations`)).body as Array<{ name: string; categories: string[] | null }>).find(
        (d) => d.name === 'Billing',
      );
      assert.deepEqual(created?.categories, ['signups']);
    });

    it('words a destination row plainly: the format by name, the secret labelled, replaying set apart and aligned (points 10, 21)', async () => {
      await page.goto(`${settingsUrl()}#destinations`);
      const row = destinationRow();
      await row.waitFor();
      assert.equal(await row.getByTestId('destination-format').textContent(), 'Signed JSON');
      assert.equal(await row.getByText('Signing secret', { exact: true }).isVisible(), true, 'a visible label for the secret');
      const actions = (await row.locator('.row-actions').boundingBox())!;
      const replay = row.getByTestId('destination-replay-failed');
      const form = (await replay.boundingBox())!;
      assert.ok(form.y >= actions.y + actions.height + 8, 'the replay form is apart from the buttons');
      const field = (await replay.getByLabel('Replay failed since').boundingBox())!;
      const button = (await replay.getByRole('button', { name: 'Replay failed' }).boundingBox())!;
      if (Math.abs(field.y - button.y) < field.height)
        assert.ok(Math.abs(field.y + field.height - (button.y + button.height)) <= 2, 'the date field and its button share a bottom line');
      // The section is named as its link is.
      await page.getByRole('heading', { name: 'General', level: 2 }).waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Project', exact: true, level: 2 }).count(), 0);
    });

    for (const theme of ['light', 'dark'] as const) {
      it(`passes axe in the ${theme} theme with the links, an edit form, the picker's list and its warning showing`, async () => {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        try {
          // A reload: from the same address, goto would only follow the fragment and keep the page.
          await page.goto(`${settingsUrl()}#destinations`);
          await page.reload();
          await destinationRow().waitFor();
          await page.waitForFunction(() => document.activeElement?.id === 'destinations');
          assert.deepEqual(await axeViolations(page), []);
          await hookRow().getByRole('button', { name: /^Edit/ }).click();
          const picker = destinationRow().getByRole('combobox');
          await picker.fill('refunds');
          await picker.press('Enter');
          await destinationRow().getByTestId('unknown-categories').waitFor();
          await picker.click();
          await page.getByRole('listbox').waitFor();
          assert.deepEqual(await axeViolations(page), []);
          assert.equal(await noSidewaysScroll(), true);
          fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
          await page.screenshot({ path: path.join(ROOT, 'test-results', `settings-${size}-${theme}.png`) });
        } finally {
          await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
        }
      });
    }
  });
}

// "Your account" and "API keys" as a person trusts them (issue "the dashboard's 23 defects",
// points 1, 3, 18, 20 and the theme of 23), at desktop and phone size in one file
// (accountAndKeys.test.ts), axe-clean in the light and the dark theme: the digest's radios
// in a row beside their labels and its buttons apart; a theme chosen here wins over the system's;
// a searchable time-zone field with the browser's zone first; the password changed while signed
// in; a key form that starts afresh after each key and says the scope before creating it; an
// origin as the address bar shows it accepted, and origins that never wrap inside a word.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createProject } from '../../src/features/projects/createProject.ts';
import { OPERATOR } from '../../src/context.ts';
import type { TestApp } from '../helpers.ts';
import { assertNoAxeViolationsInBothThemes } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { PASSWORD, missingBrowser } from './support.ts';

type Box = { x: number; y: number; width: number; height: number };
const middle = (box: Box) => box.y + box.height / 2;

export function accountAndKeysSuite(t: TestApp, size: 'desktop' | 'phone', viewport: { width: number; height: number }): void {
  describe(`"Your account" and "API keys" (${size})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let base = '';
    let email = '';
    const projects: Record<string, string> = {};

    // An organization per size: the suite changes what it looks at (the password, the keys).
    before(async () => {
      browser = await openSignedIn(t, {
        organization: 'Account Org',
        viewport,
        seed: async (_api, organizationId) => {
          const ctx = { services: t.services, organizationId, actor: OPERATOR };
          for (const name of ['Shop', 'Blog']) projects[name] = (await createProject({ ctx, input: { name } })).id;
        },
      });
      ({ base, page, email } = browser);
    });
    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    it('lays the digest out: each radio beside its label in one row, the buttons apart (point 1)', async () => {
      await page.goto(`${base}/app/account`);
      const form = page.getByRole('form', { name: 'Email digest' });
      await form.waitFor();
      const radios = form.locator('label.radio');
      assert.equal(await radios.count(), 3);
      for (let index = 0; index < 3; index++) {
        const label = radios.nth(index);
        const input = (await label.locator('input').boundingBox())!;
        const text = (await label.locator('span').boundingBox())!;
        assert.ok(input.x + input.width <= text.x, 'the radio is left of its label');
        assert.ok(Math.abs(middle(input) - middle(text)) < 6, 'the radio and its label share a line');
      }
      if (size === 'desktop') {
        const tops = await radios.evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().top)));
        assert.equal(new Set(tops).size, 1, `one row of radios: ${tops.join(', ')}`);
      }
      const save = (await form.getByRole('button', { name: 'Save' }).boundingBox())!;
      const send = (await form.getByRole('button', { name: 'Send me one now' }).boundingBox())!;
      const apart = send.y >= save.y + save.height ? send.y - (save.y + save.height) : send.x - (save.x + save.width);
      assert.ok(apart >= 8, `the buttons are ${apart}px apart`);
      await assertNoAxeViolationsInBothThemes(page, 'the account page');
    });

    it("searches time zones, the browser's first, and names an unknown one beside its field (point 18)", async () => {
      const field = page.getByLabel('Time zone');
      const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      assert.equal(await field.inputValue(), browserZone);
      assert.equal(await field.evaluate((input) => input.tagName), 'INPUT', 'typed, not a 420-row list');
      const first = await page.evaluate(() => document.querySelector('datalist option')?.getAttribute('value'));
      assert.equal(first, browserZone, "the browser's zone leads the suggestions");
      await field.fill('Mars/Olympus');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Choose a time zone from the suggestions').waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      await field.fill('Europe/Berlin');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), null);
    });

    it("switches the theme here, over the system's, and keeps it after a reload (point 23)", async () => {
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      const background = () =>
        page.evaluate(() => getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor);
      const lightBackground = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
      await page.getByRole('radio', { name: 'Dark' }).check();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      const darkBackground = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
      assert.notEqual(darkBackground, lightBackground, 'dark over a light system');
      await page.reload();
      await page.getByRole('radio', { name: 'Dark' }).waitFor();
      assert.equal(await page.getByRole('radio', { name: 'Dark' }).isChecked(), true);
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()), darkBackground);
      await assertNoAxeViolationsInBothThemes(page, 'the account page, dark chosen');
      await page.getByRole('radio', { name: 'System' }).check();
      await page.waitForFunction(() => !document.documentElement.dataset.theme);
      assert.ok(await background());
    });

    it('changes the password while signed in, the wrong current one said beside its field (point 18)', async () => {
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill('not my password');
      await form.getByLabel('New password').fill('a brand new password');
      await form.getByRole('button', { name: 'Change password' }).click();
      await form.getByText('This is not your current password.').waitFor();
      assert.equal(await form.getByLabel('Current password').getAttribute('aria-invalid'), 'true');
      await form.getByLabel('Current password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await page.getByTestId('password-changed').waitFor();
      await assertNoAxeViolationsInBothThemes(page, 'the account page, password changed');
      const signInWith = async (password: string) =>
        (await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }))
          .status;
      assert.equal(await signInWith('a brand new password'), 200);
    });

    it('starts the key form afresh after a key, and says the scope before creating it (point 3)', async () => {
      await page.goto(`${base}/app/api`);
      const form = page.getByRole('form', { name: 'Create an API key' });
      await form.waitFor();
      const summary = page.getByTestId('key-summary');
      assert.match(await summary.innerText(), /Full access to every project/);
      await form.getByRole('radio', { name: /^Ingest/ }).check();
      await form.getByRole('radio', { name: 'Only the projects chosen below' }).check();
      await form.getByRole('checkbox', { name: 'Shop' }).check();
      await form.getByLabel('Browser origins (optional)').fill('http://localhost:5173/');
      assert.match(await summary.innerText(), /Ingest access to Shop, usable from web pages on http:\/\/localhost:5173\./);
      await form.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your new API key' });
      await dialog.waitFor();
      assert.match(await dialog.getByTestId('snippet-fetch').innerText(), new RegExp(`project: '${projects.Shop}'`));
      await assertNoAxeViolationsInBothThemes(page, 'the new key dialog');
      await dialog.getByRole('button', { name: 'I have saved it' }).click();

      // The next key starts from the defaults: nothing of the first carries over.
      assert.equal(await form.getByRole('radio', { name: /^Full/ }).isChecked(), true);
      assert.equal(await form.getByRole('radio', { name: /^Every project/ }).isChecked(), true);
      assert.equal(await form.getByLabel('Browser origins (optional)').count(), 0);
      assert.match(await summary.innerText(), /Full access to every project/);
      await form.getByRole('radio', { name: /^Ingest/ }).check();
      assert.equal(await form.getByLabel('Browser origins (optional)').inputValue(), '');
      await form.getByRole('radio', { name: 'Only the projects chosen below' }).check();
      assert.equal(await form.getByRole('checkbox', { name: 'Shop' }).isChecked(), false);
      await form.getByRole('checkbox', { name: 'Blog' }).check();
      await form.getByLabel('Browser origins (optional)').fill('https://blog.example.com');
      await form.getByRole('button', { name: 'Create API key' }).click();
      await dialog.waitFor();
      const snippet = await dialog.getByTestId('snippet-fetch').innerText();
      assert.match(snippet, new RegExp(`project: '${projects.Blog}'`));
      await dialog.getByRole('button', { name: 'I have saved it' }).click();
      const [blogKey] = (await (
        await fetch(`${base}/api/keys`, { headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })
      ).json()) as Array<{ projects: string[] | null }>;
      assert.deepEqual(blogKey?.projects, [projects.Blog], 'the second key has only its own project');
    });

    it('shows the origin normalised and never wraps an origin inside a word (point 20)', async () => {
      const origins = page.getByTestId('key-origins');
      await origins.first().waitFor();
      const texts = await origins.allInnerTexts();
      assert.ok(
        texts.some((text) => text.replace(/\s/g, '') === 'http://localhost:5173'),
        texts.join(' | '),
      );
      // Every word of every origin on one line: a break falls only between words.
      const broken = await page.evaluate(() => {
        const found: string[] = [];
        for (const item of document.querySelectorAll('[data-testid=key-origins] li')) {
          for (const word of item.textContent?.match(/[a-z0-9]+/gi) ?? []) {
            const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const at = node.textContent?.indexOf(word) ?? -1;
              if (at < 0) continue;
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + word.length);
              const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (lines.size > 1) found.push(word);
            }
          }
        }
        return found;
      });
      assert.deepEqual(broken, []);
      await assertNoAxeViolationsInBothThemes(page, 'the API keys page');
    });
  });
}

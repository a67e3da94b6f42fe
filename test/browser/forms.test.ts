// Keys, secrets and forms in a real browser: named keys, secrets masked until revealed, a
// validation error beside its field (not in a toast), skeletons while lists load, and an import
// report in words ("1 insight", project names).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

const t = useTestApp();

describe('keys, secrets and forms in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';

  before(async () => {
    // The first sign-in lands on the project list: the organization has no project yet.
    browser = await openSignedIn(t, { organization: 'Forms Org', viewport: { width: 1280, height: 860 }, timeoutMs: 10000, landsOn: 'Projects' });
    ({ base, page } = browser);
  });

  after(async () => {
    await browser?.close();
  });

  it('shows a skeleton, not "Loading…" text, while a list loads', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/keys', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await page.goto(`${base}/app/api`);
    const skeleton = page.getByRole('status').filter({ hasText: 'Loading keys…' });
    await skeleton.waitFor();
    const words = await page.getByText('Loading keys…', { exact: true }).boundingBox();
    assert.ok(words && words.width <= 1 && words.height <= 1, 'the words are for screen readers only');
    assert.ok((await page.locator('.skeleton-row').count()) >= 3, 'placeholder rows keep the page in shape');
    release();
    await skeleton.waitFor({ state: 'detached' });
    await page.unroute('**/api/keys');
  });

  it('names a new key, shows it masked until revealed, and lists it by name', async () => {
    await page.getByLabel('Name (optional)').fill('  CI deploys ');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    const field = dialog.getByTestId('new-key');
    assert.equal(await field.getAttribute('type'), 'password', 'masked at first');
    const key = await field.inputValue();
    assert.match(key, /^ev_/);
    assert.equal(await dialog.getByText(key).count(), 0);

    const reveal = dialog.getByRole('button', { name: 'Reveal API key' });
    assert.equal(await reveal.getAttribute('aria-pressed'), 'false');
    await reveal.click();
    assert.equal(await field.getAttribute('type'), 'text');
    await dialog.getByRole('button', { name: 'Hide API key' }).waitFor();
    await dialog.getByRole('button', { name: 'Copy API key' }).waitFor();
    await dialog.getByRole('button', { name: 'I have saved it' }).click();

    const row = page.getByTestId('key-row').filter({ has: page.getByTestId('key-name').filter({ hasText: 'CI deploys' }) });
    await row.waitFor();
    assert.equal(await page.getByLabel('Name (optional)').inputValue(), '', 'the form is ready for the next key');
  });

  it('shows a validation error beside its field, described and marked invalid, with no toast', async () => {
    await page.getByRole('link', { name: 'Projects' }).click();
    const name = page.getByLabel('New project name');
    await name.fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Create project' }).click();
    const error = page.getByTestId('name-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /name must be at most 200 characters/);
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.equal(await name.getAttribute('aria-describedby'), await error.getAttribute('id'));
    assert.equal(await page.locator('.toast').count(), 0, 'no toast repeats it');
    assert.equal(await page.locator('.banner-error').count(), 0, 'no banner repeats it');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');

    // Typing again clears it; a good name creates the project.
    await name.fill('Web shop');
    assert.equal(await name.getAttribute('aria-invalid'), null);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor();
  });

  it('masks signing secrets and hook URLs, in the field and in the example', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Name', { exact: true }).first().fill('Stripe');
    await page.getByLabel('Default category').fill('payments');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const url = page.getByTestId('hook-url');
    await url.waitFor();
    assert.equal(await url.getAttribute('type'), 'password');
    const token = (await url.inputValue()).split('/').pop()!;
    assert.ok(token.length > 10);
    assert.equal(await page.locator('pre.code').filter({ hasText: token }).count(), 0, 'the example hides the token too');

    await page.locator('input[name=destinationName]').fill('Team chat');
    await page.locator('input[name=destinationUrl]').fill('https://example.com/receiver');
    await page.getByRole('button', { name: 'Add destination' }).click();
    const secret = page.getByLabel('Signing secret for Team chat');
    await secret.waitFor();
    assert.equal(await secret.getAttribute('type'), 'password');
    await page.getByRole('button', { name: 'Reveal signing secret of Team chat' }).click();
    assert.equal(await secret.getAttribute('type'), 'text');
  });

  it('reports an import in words: "1 insight", and the new projects by name', async () => {
    const file = path.join(browser.scratchDir, 'one.json');
    const document = {
      version: 1,
      projects: [
        {
          id: 'old-id-1',
          name: 'Imported shop',
          events: [
            { category: 'orders', title: 'First order' },
            { category: 'orders', title: 'Second order' },
          ],
          insights: [{ title: 'Revenue', value: 12 }],
        },
      ],
    };
    fs.writeFileSync(file, JSON.stringify(document));
    await page.getByRole('link', { name: 'Export & import' }).click();
    await page.getByLabel('Export file (.json)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    assert.match((await report.textContent()) ?? '', /Imported 1 project, 2 events and 1 insight\./);
    await report.getByRole('link', { name: 'Imported shop' }).waitFor();
    await report.getByRole('cell', { name: 'old-id-1' }).waitFor();
    assert.deepEqual(browser.pageErrors, []);
  });
});

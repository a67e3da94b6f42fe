// The dashboard's first run in a real browser (Debian's chromium through playwright-core) against
// the real server: the first-run setup page, the sign-in form, an API key made in the UI, the
// first project and the project the dashboard remembers. Screenshots land in test-results/;
// dashboard.test.ts goes on from a signed-in user's feed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { useTestApp } from '../helpers.ts';
import { type OpenBrowser, PASSWORD, ROOT, apiWithKey, ensureDashboardBuilt, listenOnce, missingBrowser, openBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');

const t = useTestApp();

async function shot(page: Page, name: string, { fullPage = false } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

describe("the dashboard's first run in a browser", { skip: missingBrowser }, () => {
  let browser: OpenBrowser;
  let page: Page;
  let base = '';
  let email: string;
  let apiKey = '';
  let projectId = '';

  /** The API as a script would call it, with the key made through the UI. */
  const api = apiWithKey(
    () => base,
    () => apiKey,
  );

  // A hand set-up, not openSignedIn: the sign-in form, the first API key and the first project are what it tests.
  before(async () => {
    ensureDashboardBuilt();
    base = await listenOnce(t.app);
    const organization = await createOrganization({ ctx: t.operator, input: { name: 'Browser Test Org' } });
    email = `browser-${Date.now()}@example.com`;
    await createAccount({ ctx: t.operator, input: { organizationId: organization.id, email, password: PASSWORD } });

    browser = await openBrowser({ viewport: { width: 1280, height: 860 } });
    page = browser.page;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    if (process.env.DEBUG_BROWSER) {
      page.on('console', (message) => console.error('[browser]', message.type(), message.text()));
      page.on('response', (response) => console.error('[browser]', response.status(), response.url()));
    }
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  it('offers first-run setup when the server says so, and shows the server error in words', async () => {
    // Other tests share this database, so "no users yet" is staged for the page only.
    await page.route('**/api/setup', (route) => (route.request().method() === 'GET' ? route.fulfill({ json: { needed: true } }) : route.fallback()));
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: /set things up/i }).waitFor();
    await shot(page, '00-setup');
    await page.getByLabel('Organization name').fill('Second org');
    await page.getByLabel('Email').fill(`other-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('long enough password');
    await page.getByRole('button', { name: 'Create organization' }).click();
    // The installation already has users: the real server refuses, and its words are shown.
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.ok((await alert.textContent())?.trim().length, 'the setup error is shown');
    await page.unroute('**/api/setup');
  });

  it('signs in with a wrong password (error shown), then with the right one', async () => {
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, '01-sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // No project yet: the home page sends the person to the project list.
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    assert.match(page.url(), /\/app\/projects$/);
  });

  it('creates an API key that is shown exactly once', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    await dialog.getByText(/shown only this once/).waitFor();
    apiKey = await page.getByTestId('new-key').inputValue();
    assert.match(apiKey, /^ev_[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}$/);
    await shot(page, '02-api-key-created');
    await dialog.getByRole('button', { name: 'Copy API key' }).click();
    await dialog.getByRole('button', { name: 'Copied API key' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), apiKey);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('key-row').first().waitFor();
    await page.reload();
    await page.getByTestId('key-row').first().waitFor();
    assert.equal(await page.getByText(apiKey).count(), 0, 'the plaintext key is not shown again');
    assert.equal((await api('GET', '/api/projects')).status, 200, 'the key made in the UI works');
    await shot(page, '03-api-keys');
  });

  it('creates a project and lands on its empty feed', async () => {
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByLabel('New project name').fill('Web shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Feed' }).waitFor();
    const match = /\/app\/p\/([a-z0-9]{12})$/.exec(page.url());
    assert.ok(match, `feed URL: ${page.url()}`);
    projectId = match[1]!;
    await page.getByText('No events yet.').waitFor();
    await page.locator('.live-open').waitFor();
  });

  it('opens the remembered project first, asking for its feed right after the session', async () => {
    const requests: string[] = [];
    const record = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) requests.push(url.pathname);
    };
    page.on('request', record);
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: 'Feed' }).waitFor();
    page.off('request', record);
    assert.match(page.url(), new RegExp(`/app/p/${projectId}$`));
    // Other parts of the page (the disabled-destinations warning) load beside it, in any order.
    const feedPath = requests.filter((path) => ['/api/session', '/api/events', '/api/projects'].includes(path));
    assert.deepEqual(feedPath.slice(0, 2), ['/api/session', '/api/events'], `requests: ${requests.join(' ')}`);
  });

  it('sends a project that does not exist back to the project list, saying why', async () => {
    await page.goto(`${base}/app/p/doesnotexist1`);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'This project is not available' }).waitFor();
    await page.getByRole('button', { name: 'Dismiss message' }).first().click();
    await page.getByRole('link', { name: 'Web shop' }).click();
    await page.getByRole('heading', { name: 'Feed' }).waitFor();
    await page.locator('.live-open').waitFor();
  });
});

// Destinations' Settings rows in a real browser (Debian's chromium through playwright-core)
// against the real server: the category filter is chosen there, the health line and the
// automatic-disable reason show, and the project's tabs warn about the disabled destination.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startReceiver, startWorker } from '../destinations/support.ts';
import { waitUntil } from '../wait.ts';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, freePort, missingBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base, ALLOW_PRIVATE_WEBHOOK_URLS: '1' }, { ownDatabase: true });

describe('destinations in the browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';
  const cleanup: Array<() => Promise<unknown>> = [];

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Destinations Browser Org',
      port,
      viewport: { width: 1280, height: 900 },
      timeoutMs: 10_000,
      seed: async (api) => {
        const created = await api('POST', '/api/projects', { name: 'Shop' });
        assert.equal(created.status, 201);
        project = created.body.id;
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    for (const step of cleanup.reverse()) await step();
  });

  it('shows health and the automatic-disable reason, warns on the tabs, and edits the category filter', async () => {
    const { api } = browser;
    const healthy = await startReceiver([200]);
    const failing = await startReceiver([500]);
    cleanup.push(
      () => healthy.close(),
      () => failing.close(),
    );
    const good = await api('POST', `/api/projects/${project}/destinations`, { name: 'Team chat', url: healthy.url, format: 'json' });
    const bad = await api('POST', `/api/projects/${project}/destinations`, { name: 'Old server', url: failing.url, format: 'json' });
    assert.equal(good.status, 201);
    const worker = startWorker(t, { retryDelaysMs: [] });
    cleanup.push(() => worker.stop());
    for (let i = 0; i < 20; i++) {
      const event = await api('POST', '/api/events', { project, category: 'deploys', title: `Deploy ${i}`, notify: true });
      assert.equal(event.status, 201);
    }
    await waitUntil(async () => (await api('GET', `/api/destinations/${bad.body.id}/health`)).body.deliveries === 20, {
      timeoutMs: 15_000,
      message: 'the deliveries',
    });
    await waitUntil(async () => (await api('GET', `/api/destinations/${good.body.id}/health`)).body.deliveries === 20, {
      timeoutMs: 15_000,
      message: 'the deliveries',
    });

    await page.goto(`${base}/app/p/${project}`);
    const warning = page.getByTestId('disabled-destinations-warning');
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', /“Old server” was disabled automatically/);

    await warning.getByRole('link', { name: 'Open Settings' }).click();
    const goodRow = page.getByTestId('destination-row').filter({ hasText: 'Team chat' });
    const badRow = page.getByTestId('destination-row').filter({ hasText: 'Old server' });
    await goodRow.getByTestId('destination-health').getByText('Health: 100% of the last 20 deliveries succeeded (20/20)').waitFor();
    await badRow.getByTestId('destination-health').getByText('Health: 0% of the last 20 deliveries succeeded (0/20)').waitFor();
    await badRow
      .getByTestId('destination-disabled-reason')
      .getByText(/20 consecutive failed deliveries \(last: HTTP 500\)/)
      .waitFor();
    fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'destinations-settings.png'), fullPage: true });

    // Categories no event has yet are still accepted by the picker (typed, then Enter), and flagged.
    const picker = goodRow.getByRole('combobox', { name: 'Add a category to categories' });
    for (const category of ['payments', 'refunds']) {
      await picker.fill(category);
      await picker.press('Enter');
    }
    await goodRow.getByTestId('unknown-categories').waitFor();
    await goodRow.getByRole('button', { name: 'Save filter' }).click();
    await goodRow.getByText('Only payments, refunds').waitFor();
    const saved = (await api('GET', `/api/projects/${project}/destinations`)).body.find((d: { id: string }) => d.id === good.body.id);
    assert.deepEqual(saved.categories, ['payments', 'refunds']);

    // Enabling clears the reason, and the tabs stop warning.
    await badRow.getByRole('button', { name: 'Enable' }).click();
    await badRow.getByTestId('destination-disabled-reason').waitFor({ state: 'detached' });
    await warning.waitFor({ state: 'detached' });
    failing.answers = [200];
    await badRow.getByRole('button', { name: 'Replay failed' }).click();
    await page.getByText('20 failed deliveries to “Old server” queued again').waitFor();
    await failing.waitFor(40);
  });
});

// Two defects a new user hit (issue "Hardening and polish", dashboard 1 and 8), at desktop and
// phone size, light and dark: lowering a project's retention asks first, saying how many events
// will go, and saves nothing on Cancel; `?` opens the keyboard shortcut sheet.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { axeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

const t = useTestApp();
const COMBOS = [
  ['desktop', { width: 1440, height: 900 }, 'light'],
  ['phone', { width: 390, height: 844 }, 'dark'],
  ['desktop', { width: 1440, height: 900 }, 'dark'],
  ['phone', { width: 390, height: 844 }, 'light'],
] as const;

describe('retention confirmation and the shortcut sheet', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  const api: SignedInBrowser['api'] = (...request) => browser.api(...request);

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Retention Org',
      viewport: { width: 1440, height: 900 },
      timeoutMs: 15_000,
      seed: async (api) => {
        await api('POST', '/api/projects', { name: 'Home' });
      },
    });
    ({ base, page } = browser);
  });
  after(async () => await browser?.close());

  for (const [size, viewport, theme] of COMBOS) {
    it(`lowering retention asks with the count of events that will go (${size}, ${theme})`, async () => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      const projectId = (await api('POST', '/api/projects', { name: `Kept ${size} ${theme}` })).body.id as string;
      assert.equal((await api('PATCH', `/api/projects/${projectId}`, { retentionDays: 90 })).status, 200);
      const daysAgo = (days: number) => Math.floor(Date.now() / 1000) - days * 86_400;
      for (const [title, days] of [
        ['Old one', 40],
        ['Old two', 45],
        ['Recent', 1],
      ] as const) {
        assert.equal((await api('POST', '/api/events', { project: projectId, category: 'c', title, created_at: daysAgo(days) })).status, 201);
      }
      await page.goto(`${base}/app/p/${projectId}/settings`);
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="retentionDays"]')?.value === '90');
      await page.getByLabel(/Keep events for/).fill('30');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete 2 events?' });
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /Keeping events for 30 days deletes the 2 events/);
      assert.deepEqual(await axeViolations(page), []);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const kept = ((await api('GET', '/api/projects')).body as Array<{ id: string; retentionDays: number | null }>).find((p) => p.id === projectId);
      assert.equal(kept?.retentionDays, 90, 'Cancel saves nothing');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.getByRole('button', { name: 'Delete 2 events and save' }).click();
      await page
        .getByText(/Project “Kept .*” saved/)
        .first()
        .waitFor();
      const saved = ((await api('GET', '/api/projects')).body as Array<{ id: string; retentionDays: number | null }>).find((p) => p.id === projectId);
      assert.equal(saved?.retentionDays, 30);

      // Raising it again deletes nothing, so it is saved at once.
      await page.getByLabel(/Keep events for/).fill('60');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForFunction(async (id) => {
        const projects = (await (await fetch('/api/projects')).json()) as Array<{ id: string; retentionDays: number | null }>;
        return projects.find((p) => p.id === id)?.retentionDays === 60;
      }, projectId);
      assert.equal(await page.getByRole('dialog').count(), 0);
    });

    it(`? opens the keyboard shortcut sheet, Escape closes it (${size}, ${theme})`, async () => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await page.goto(`${base}/app/projects`);
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      await page.keyboard.press('?');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await sheet.waitFor();
      for (const key of ['?', '/', 'j / k', '← / →', 'Enter', 'f', 'Escape'])
        assert.equal((await sheet.locator('kbd', { hasText: key }).count()) >= 1, true, key);
      assert.deepEqual(await axeViolations(page), []);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      // Not while typing: a ? in a field is a character.
      await page.getByRole('textbox').first().fill('');
      await page.getByRole('textbox').first().press('?');
      assert.equal(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count(), 0);
    });
  }
});

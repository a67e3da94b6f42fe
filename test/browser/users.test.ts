// Users, a user's profile, the feed's filter chips (kept by a reload) and renaming a project, in
// a real browser against the real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { freePort, missingBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('users, profiles, filter chips and project settings in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let projectId = '';
  const api: SignedInBrowser['api'] = (...request) => browser.api(...request);
  const feedEvent = (title: string) => page.locator('article.event', { has: page.getByRole('heading', { name: title, exact: true }) });

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Users Browser Org',
      port,
      viewport: { width: 1280, height: 860 },
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
        const now = Math.floor(Date.now() / 1000);
        await api('POST', '/api/events', {
          project: projectId,
          category: 'signups',
          title: 'Ann signed up',
          user_id: 'ann@example.com',
          tags: { plan: 'pro' },
          created_at: now - 60,
        });
        await api('POST', '/api/events', {
          project: projectId,
          category: 'billing',
          title: 'Ann paid',
          user_id: 'ann@example.com',
          tags: { plan: 'pro' },
          created_at: now - 30,
        });
        await api('POST', '/api/events', { project: projectId, category: 'signups', title: 'Bob signed up', user_id: 'bob', tags: { plan: 'free' } });
        assert.equal((await api('POST', '/api/identify', { project: projectId, user_id: 'ann@example.com', properties: { company: 'Acme' } })).status, 200);
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  it('lists users by last seen, searches them and opens a profile with the journey', async () => {
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    const links = page.locator('.user-list .project-link');
    await links.first().waitFor();
    // Bob's event is the newest: Ann's later identify call is not activity (issue 49, point 9).
    assert.deepEqual(await links.allTextContents(), ['bob', 'ann@example.com']);
    await page.getByLabel('Search users').fill('acme');
    await page.waitForFunction(() => document.querySelectorAll('.user-list .project-link').length === 1);
    await page.getByRole('link', { name: 'ann@example.com' }).click();
    await page.getByRole('heading', { name: 'ann@example.com' }).waitFor();
    await feedEvent('Ann paid').waitFor();
    await feedEvent('Ann signed up').waitFor();
    assert.equal(await feedEvent('Bob signed up').count(), 0);
    await page.getByText('company').waitFor();
    // Live: a new event of this user appears without a reload.
    await api('POST', '/api/events', { project: projectId, category: 'billing', title: 'Ann upgraded', user_id: 'ann@example.com' });
    await feedEvent('Ann upgraded').waitFor();
  });

  it('links user ids in the feed to profiles; a tag chip filters by tag=key:value and survives a reload', async () => {
    await page.goto(`${base}/app/p/${projectId}`);
    await feedEvent('Bob signed up').waitFor();
    await feedEvent('Bob signed up')
      .getByRole('button', { name: /^Filter by tag\s*plan\s*:\s*free$/ })
      .click();
    await page.waitForURL(/tag=plan%3Afree/);
    await page.waitForFunction(() => document.querySelectorAll('article.event').length === 1);
    await page.getByRole('button', { name: 'Remove filter tag plan:free' }).waitFor();
    await page.getByRole('button', { name: 'Favorites only' }).click();
    await page.waitForURL(/favorited=true/);
    await page.getByRole('button', { name: 'Favorites only' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Remove filter tag plan:free' }).waitFor();
    await feedEvent('Bob signed up').waitFor();
    assert.equal(await feedEvent('Ann paid').count(), 0);
    await page.getByRole('button', { name: 'Remove filter tag plan:free' }).click();
    await feedEvent('Ann paid').waitFor();
    await page.goBack();
    await page.getByRole('button', { name: 'Remove filter tag plan:free' }).waitFor();
    await page.goto(`${base}/app/p/${projectId}`);
    await feedEvent('Ann paid')
      .getByRole('link', { name: /ann@example\.com/ })
      .click();
    await page.getByRole('heading', { name: 'ann@example.com' }).waitFor();
  });

  it('renames the project and sets its retention on the Settings tab', async () => {
    await page.goto(`${base}/app/p/${projectId}/settings`);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="projectName"]')?.value === 'Shop');
    await page.getByLabel('Project name').fill('Web shop');
    await page.getByLabel(/Keep events for/).fill('90');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Project “Web shop” saved').waitFor();
    const projects = (await api('GET', '/api/projects')).body as Array<{ id: string; name: string; retentionDays: number | null }>;
    const saved = projects.find((p) => p.id === projectId);
    assert.deepEqual([saved?.name, saved?.retentionDays], ['Web shop', 90]);
  });
});

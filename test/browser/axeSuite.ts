// axe-core on every dashboard page (zero violations at any impact), light and dark, with the
// Content-Security-Policy watched: the dashboard must work under it, with no violation reported.
// Two files run it (light and dark), each at desktop (1440x900) and phone (390x844) size: one
// organization per file, each size signed in in a context of its own (the suite only looks).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { axeViolations, waitForLoaded, watchCsp } from './pageChecks.ts';
import { DESKTOP, PHONE, type SignedInBrowser, signedInAtEachSize } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

export function axeSuite(t: TestApp, theme: 'light' | 'dark'): void {
  let projectId = '';
  const signIn = signedInAtEachSize(t, {
    organization: 'Axe Org',
    monthlyEventCap: 1000,
    seed: async (api) => {
      projectId = (await api('POST', '/api/projects', { name: 'Web shop' })).body.id;
      for (let index = 0; index < 4; index++) {
        await api('POST', '/api/events', {
          project: projectId,
          category: index % 2 ? 'payments' : 'signups',
          title: `Event #${index}`,
          description: 'Paid **€20** with `card` [receipt](https://example.com)',
          icon: '💰',
          notify: index === 1,
          tags: { plan: 'pro', seats: index },
          userId: 'user-1',
        });
      }
      await api('POST', '/api/identify', { project: projectId, user_id: 'user-1', properties: { name: 'Ada', plan: 'pro' } });
      await api('POST', '/api/insight', { project: projectId, title: 'Revenue', value: 1234.5, icon: '💶' });
      await api('POST', `/api/projects/${projectId}/hooks`, { name: 'Stripe', category: 'payments' });
      await api('POST', `/api/projects/${projectId}/destinations`, { name: 'Team chat', url: 'https://example.com/hook', format: 'json' });
    },
  });
  for (const [viewportName, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    describe(`axe-core and the CSP on every page (${viewportName}, ${theme})`, { skip: missingBrowser }, () => {
      let browser: SignedInBrowser;
      let page: Page;
      let base = '';
      let csp: string[] = [];
      const signInViolations: string[] = [];

      before(async () => {
        browser = await signIn(viewport, {
          beforeSignIn: async (page, base) => {
            csp = watchCsp(page);
            await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
            await page.goto(`${base}/app/`);
            await page.getByLabel('Email').waitFor();
            for (const violation of await axeViolations(page)) signInViolations.push(`Sign in: ${violation}`);
          },
        });
        ({ base, page } = browser);
      });
      after(async () => await browser?.close());

      const pages = () =>
        [
          ['Projects', '/app/projects', 'Projects'],
          ['Organization', '/app/organization', 'Organization'],
          ['Members', '/app/members', 'Members'],
          ['API keys', '/app/api', 'API keys'],
          ['Audit log', '/app/audit', 'Audit log'],
          ['Export & import', '/app/transfer', 'Export & import'],
          ['Feed', `/app/p/${projectId}`, 'Feed'],
          ['Insights', `/app/p/${projectId}/insights`, 'Insights'],
          ['Users', `/app/p/${projectId}/users`, 'Users'],
          ['User profile', `/app/p/${projectId}/users/user-1`, null],
          ['Charts', `/app/p/${projectId}/charts`, 'Charts'],
          ['Playground', `/app/p/${projectId}/playground`, 'Playground'],
          ['Settings', `/app/p/${projectId}/settings`, 'Settings'],
        ] as const;

      {
        it(`has no axe violation and no CSP violation`, async () => {
          // The sign-in page was audited before there was a session, as the fixture signed in.
          const found = [...signInViolations];
          for (const [name, url, heading] of pages()) {
            await page.goto(`${base}${url}`);
            if (heading) await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
            else await page.getByRole('heading', { level: 1 }).first().waitFor();
            await waitForLoaded(page);
            for (const violation of await axeViolations(page)) found.push(`${name}: ${violation}`);
          }
          assert.deepEqual(csp, [], 'the dashboard works under its Content-Security-Policy');
          assert.deepEqual(found, [], `${found.length} axe violations:\n${found.join('\n')}`);
        });
      }
    });
  }
}

// axe-core on every dashboard page (zero violations at any impact), light and dark, with the
// Content-Security-Policy watched: the dashboard must work under it, with no violation reported.
// Four files run it (desktop 1440x900 and phone 390x844, light and dark), each inside the
// per-file timeout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { OPERATOR } from '../../src/context.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import type { TestApp } from '../helpers.ts';
import { axeViolations, watchCsp } from './pageChecks.ts';
import { type OpenBrowser, PASSWORD, apiWithKey, ensureDashboardBuilt, listenOnce, missingBrowser, openBrowser, signIn } from './support.ts';

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

export function axeSuite(t: TestApp, viewportName: keyof typeof VIEWPORTS, theme: 'light' | 'dark'): void {
  describe(`axe-core and the CSP on every page (${viewportName}, ${theme})`, { skip: missingBrowser }, () => {
    let browser: OpenBrowser;
    let page: Page;
    let base = '';
    let email = '';
    let apiKey = '';
    let projectId = '';
    let csp: string[] = [];
    const api = apiWithKey(
      () => base,
      () => apiKey,
    );

    before(async () => {
      ensureDashboardBuilt();
      base = await listenOnce(t.app);
      const organization = await createOrganization({ ctx: t.operator, input: { name: 'Axe Org', monthlyEventCap: 1000 } });
      email = `axe-${Date.now()}@example.com`;
      await createAccount({ ctx: t.operator, input: { organizationId: organization.id, email, password: PASSWORD } });
      apiKey = (await createKey({ ctx: { services: t.services, organizationId: organization.id, actor: OPERATOR }, input: { name: 'Axe' } })).key;
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
      browser = await openBrowser({ viewport: VIEWPORTS[viewportName], timeoutMs: 15_000 });
      page = browser.page;
      csp = watchCsp(page);
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
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        const found: string[] = [];
        // The sign-in page, before there is a session.
        await page.goto(`${base}/app/`);
        await page.getByLabel('Email').waitFor();
        for (const violation of await axeViolations(page)) found.push(`Sign in: ${violation}`);
        await signIn(page, base, email);
        for (const [name, url, heading] of pages()) {
          await page.goto(`${base}${url}`);
          if (heading) await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
          else await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForFunction(() => !document.querySelector('[data-testid=skeleton], [aria-busy=true]'));
          for (const violation of await axeViolations(page)) found.push(`${name}: ${violation}`);
        }
        assert.deepEqual(csp, [], 'the dashboard works under its Content-Security-Policy');
        assert.deepEqual(found, [], `${found.length} axe violations:\n${found.join('\n')}`);
      });
    }
  });
}

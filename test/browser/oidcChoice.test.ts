// Sign-in with OpenID Connect for an email that two organizations invited: the person lands on the
// choice page, joins the one they pick, and the other invitation stays pending (decision 213). At
// desktop (1440x900) and phone (390x844) width, axe-clean in both themes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inviteMember } from '../../src/features/members/inviteMember.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { useOidcServer } from './oidcFlow.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { PASSWORD, missingBrowser, openBrowser } from './support.ts';

const { t, base, people, start } = await useOidcServer({});

const viewports = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

describe('choosing among invitations after sign-in with OpenID Connect', { skip: missingBrowser }, () => {
  start();

  for (const { name, viewport } of viewports) {
    it(`lists both organizations and joins the chosen one only (${name})`, async () => {
      const [first, second] = [await t.org(), await t.org()];
      const email = `chooser-${name}-${Date.now()}@example.com`;
      // Someone exists, or the dashboard would offer first-run setup instead.
      await createAccount({ ctx: t.operator, input: { organizationId: first.id, email: `owner-${name}-${Date.now()}@example.com`, password: PASSWORD } });
      await inviteMember({ ctx: first.ctx, input: { email, role: 'member' } });
      await inviteMember({ ctx: second.ctx, input: { email, role: 'owner' } });
      const names = new Map(
        (await t.services.sql<{ id: string; name: string }[]>`SELECT id, name FROM organizations WHERE id IN ${t.services.sql([first.id, second.id])}`).map(
          (o) => [o.id, o.name],
        ),
      );
      const accountId = `chooser-${name}`;
      people().set(accountId, { email, verified: true });

      const browser = await openBrowser({ viewport, timeoutMs: 15_000 });
      try {
        const { page } = browser;
        await page.context().route(
          (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
          (route) => route.abort(),
        );
        await page.goto(`${base}/app/`);
        await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
        await page.locator('input[name=login]').fill(accountId);
        await page.locator('input[name=password]').fill('any password: the development form takes any');
        await page.getByRole('button', { name: 'Sign-in' }).click();

        await page.getByRole('heading', { name: 'Choose an organization', level: 1 }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/app/signin/choose');
        for (const id of [first.id, second.id]) await page.getByRole('button', { name: `Join ${names.get(id)}` }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
          await assertNoAxeViolations(page, `the choice page (${name}, ${colorScheme})`);
        }

        await page.getByRole('button', { name: `Join ${names.get(second.id)}` }).click();
        await page.getByRole('button', { name: 'Sign out', includeHidden: true }).waitFor({ state: 'attached' });
        assert.deepEqual(browser.pageErrors, []);
      } finally {
        await browser.close();
      }
      const accounts = await t.services.sql`SELECT organization_id, role FROM users WHERE lower(email) = lower(${email})`;
      assert.deepEqual(
        accounts.map((a) => [a.organization_id, a.role]),
        [[second.id, 'owner']],
      );
      const pending = await t.services.sql`SELECT organization_id FROM invitations WHERE lower(email) = lower(${email})`;
      assert.deepEqual(
        pending.map((p) => p.organization_id),
        [first.id],
      );
    });
  }
});

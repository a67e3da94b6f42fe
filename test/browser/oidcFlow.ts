// Signing in through an OpenID provider in a real browser, run with password sign-in off at
// desktop width (oidcSignIn.test.ts) and on at phone width (oidcSignInPhone.test.ts). The provider
// is test/oidc/provider.ts (oidc-provider on loopback, its development login form); its own pages
// are not Eventlog's, so axe-core checks only the dashboard's.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { CLIENT, startProvider } from '../oidc/provider.ts';
import { type TestApp, useTestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { ensureDashboardBuilt, freePort } from './support.ts';

export interface OidcServer {
  t: TestApp;
  base: string;
  /** The provider's people by account id: add one before signing in as them. */
  people: () => Awaited<ReturnType<typeof startProvider>>['people'];
  /** Starts the provider and listens, for the tests of the describe block it is called in. */
  start: () => void;
}

// The OIDC files keep a hand set-up, not openSignedIn: they are about signing in (through the provider, or refused), from no session.
/**
 * The app, BASE_URL its own address so the provider sends the browser back to it, and the
 * provider, both on loopback ports known before the app reads its settings. Call at the top of a
 * test file (it registers the app's hooks), then `start()` inside the describe block.
 */
export async function useOidcServer(settings: Record<string, string>): Promise<OidcServer> {
  const [port, providerPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  let provider: Awaited<ReturnType<typeof startProvider>> | undefined;
  const env = {
    BASE_URL: base,
    OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_NAME: 'Test IdP',
    ...settings,
  };
  const t = useTestApp(env);
  const start = () => {
    before(async () => {
      ensureDashboardBuilt();
      provider = await startProvider(`${base}/api/oidc/callback`, providerPort);
      await t.app.listen({ port, host: '127.0.0.1' });
    });
    after(async () => await provider?.close());
  };
  return { t, base, people: () => provider!.people, start };
}

/**
 * From the dashboard's sign-in page through the provider's login form as `accountId`, back to the
 * dashboard signed in. The provider's page asks for fonts on the internet: refused here, offline.
 */
export async function signInWithProvider(page: Page, base: string, accountId: string): Promise<void> {
  await page.context().route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => route.abort(),
  );
  await page.goto(`${base}/app/`);
  const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
  await button.waitFor();
  await assertNoAxeViolations(page, 'the sign-in page with the OIDC button');
  await button.click();
  await page.locator('input[name=login]').fill(accountId);
  await page.locator('input[name=password]').fill('any password: the development form takes any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.origin === base && url.pathname.startsWith('/app'));
  // Folded into the Menu on a phone, so hidden there: attached is enough.
  await page.getByRole('button', { name: 'Sign out', includeHidden: true }).waitFor({ state: 'attached' });
  assert.equal(new URL(page.url()).origin, base);
}

/**
 * A person the dashboard refuses goes through the provider and lands back on the sign-in page,
 * told why and offered the way in again, never on the callback's JSON (issue "the dashboard's 23
 * defects", point 2); axe-clean in both themes.
 */
export async function assertRefusalLandsOnSignIn(page: Page, base: string, accountId: string): Promise<void> {
  await page.context().route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => route.abort(),
  );
  await page.goto(`${base}/app/`);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.locator('input[name=login]').fill(accountId);
  await page.locator('input[name=password]').fill('any password: the development form takes any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const refused = page.getByTestId('signin-refused');
  await refused.waitFor();
  assert.match(
    await refused.innerText(),
    /You were not signed in\.\s+This account is not a member of any organization here; ask an owner to invite your email\./,
  );
  const url = new URL(page.url());
  assert.equal(`${url.origin}${url.pathname}${url.search}`, `${base}/app/`, 'the reason leaves the address once read');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await assertNoAxeViolations(page, `the refused sign-in (${colorScheme})`);
  }
}

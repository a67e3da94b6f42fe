// The set-up most browser suites share: the built dashboard served on a loopback port, an
// organization of their own with a user and an API key, and that user signed in in a browser of
// its own (a context of the run's Chromium, decision 226).
import crypto from 'node:crypto';
import { OPERATOR } from '../../src/context.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import type { TestApp } from '../helpers.ts';
import { type OpenBrowser, PASSWORD, apiWithKey, ensureDashboardBuilt, listenOnce, openBrowser, signIn } from './support.ts';

export interface SignedInBrowser extends OpenBrowser {
  base: string;
  email: string;
  userId: string;
  organizationId: string;
  /** The JSON API with the organization's key. */
  api: ReturnType<typeof apiWithKey>;
}

export interface SignedInOptions {
  organization: string;
  viewport: { width: number; height: number };
  timeoutMs?: number;
  locale?: string;
  /** What the organization needs before the first page loads (signing in lands on its feed). */
  seed?: (api: SignedInBrowser['api'], organizationId: string) => Promise<void>;
}

/** A new organization's user, signed in with reduced motion, on `t`'s server (listening from now on). */
export async function openSignedIn(t: TestApp, options: SignedInOptions): Promise<SignedInBrowser> {
  ensureDashboardBuilt();
  const base = await listenOnce(t.app);
  const organizationId = (await createOrganization({ ctx: t.operator, input: { name: options.organization } })).id;
  const email = `signed-in-${crypto.randomUUID()}@example.com`;
  const userId = (await createAccount({ ctx: t.operator, input: { organizationId, email, password: PASSWORD } })).id;
  const key = (await createKey({ ctx: { services: t.services, organizationId, actor: OPERATOR }, input: { name: 'Setup' } })).key;
  const api = apiWithKey(
    () => base,
    () => key,
  );
  await options.seed?.(api, organizationId);
  const browser = await openBrowser({
    viewport: options.viewport,
    timeoutMs: options.timeoutMs ?? 15_000,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  try {
    await browser.page.emulateMedia({ reducedMotion: 'reduce' });
    await signIn(browser.page, base, email);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return { ...browser, base, email, userId, organizationId, api };
}

// The set-up most browser suites share: the built dashboard served on a loopback port, an
// organization of their own with a user and an API key, and that user signed in in a browser of
// its own (a context of the run's Chromium, decision 226). A page looked at at desktop and phone
// size signs the same user in a second context (`openAnother`) instead of seeding twice.
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { OPERATOR, type Role } from '../../src/context.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { createKey } from '../../src/features/keys/createKey.ts';
import { createOrganization } from '../../src/features/organizations/createOrganization.ts';
import type { TestApp } from '../helpers.ts';
import { type OpenBrowser, PASSWORD, apiWithKey, ensureDashboardBuilt, listenOnce, openBrowser, signIn } from './support.ts';

export type Viewport = { width: number; height: number };

export const DESKTOP: Viewport = { width: 1440, height: 900 };
export const PHONE: Viewport = { width: 390, height: 844 };

/** What one context of the signed-in user is opened with. */
export interface ContextOptions {
  viewport: Viewport;
  timeoutMs?: number;
  /** The reader's locale and time zone, as the context reports them (Intl, navigator.language, Accept-Language). */
  locale?: string;
  timezoneId?: string;
  /** A phone's touch screen: a mobile viewport and touch, with no hover. */
  isMobile?: boolean;
  hasTouch?: boolean;
  /** The heading signing in waits for: the feed's by default; an organization with no project lands on 'Projects'. */
  landsOn?: string;
  /** Looked at on the sign-in page before there is a session (its axe audit, say). */
  beforeSignIn?: (page: Page, base: string) => Promise<void> | void;
}

export interface SignedInBrowser extends OpenBrowser {
  base: string;
  email: string;
  userId: string;
  organizationId: string;
  /** The JSON API with the organization's key. */
  api: ReturnType<typeof apiWithKey>;
  /** The same user signed in in one more context (another window size, say); closed by the caller. */
  openAnother(options: ContextOptions): Promise<SignedInBrowser>;
}

export interface SignedInOptions extends ContextOptions {
  organization: string;
  /** The organization's monthly event cap; none by default. */
  monthlyEventCap?: number;
  /** The loopback port the app's BASE_URL names (from `freePort()`); any free one by default. */
  port?: number;
  /** The signed-in user's role; an owner by default. */
  role?: Role;
  /** What the organization needs before the first page loads (signing in lands on its feed). */
  seed?: (api: SignedInBrowser['api'], organizationId: string) => Promise<void>;
}

/** A new organization's user, signed in with reduced motion, on `t`'s server (listening from now on). */
export async function openSignedIn(t: TestApp, options: SignedInOptions): Promise<SignedInBrowser> {
  ensureDashboardBuilt();
  const base = await listenOnce(t.app, options.port);
  const organizationId = (
    await createOrganization({
      ctx: t.operator,
      input: { name: options.organization, ...(options.monthlyEventCap === undefined ? {} : { monthlyEventCap: options.monthlyEventCap }) },
    })
  ).id;
  const email = `signed-in-${crypto.randomUUID()}@example.com`;
  const userId = (
    await createAccount({ ctx: t.operator, input: { organizationId, email, password: PASSWORD, ...(options.role ? { role: options.role } : {}) } })
  ).id;
  const key = (await createKey({ ctx: { services: t.services, organizationId, actor: OPERATOR }, input: { name: 'Setup' } })).key;
  const api = apiWithKey(
    () => base,
    () => key,
  );
  await options.seed?.(api, organizationId);
  const signInContext = async (context: ContextOptions): Promise<SignedInBrowser> => {
    const browser = await openBrowser({
      viewport: context.viewport,
      timeoutMs: context.timeoutMs ?? 15_000,
      locale: context.locale,
      timezoneId: context.timezoneId,
      isMobile: context.isMobile,
      hasTouch: context.hasTouch,
    });
    try {
      await browser.page.emulateMedia({ reducedMotion: 'reduce' });
      await context.beforeSignIn?.(browser.page, base);
      await signIn(browser.page, base, email, PASSWORD, context.landsOn);
    } catch (error) {
      await browser.close();
      throw error;
    }
    return { ...browser, base, email, userId, organizationId, api, openAnother: signInContext };
  };
  return signInContext(options);
}

/**
 * One set-up for a page's suites at several window sizes, which only look: the first size to open
 * seeds the organization and signs in, each later one signs the same user in in a context of its
 * own. Each suite closes what it opened.
 */
export function signedInAtEachSize(
  t: TestApp,
  options: Omit<SignedInOptions, 'viewport'>,
): (viewport: Viewport, context?: Omit<ContextOptions, 'viewport'>) => Promise<SignedInBrowser> {
  let first: Promise<SignedInBrowser> | undefined;
  const { timeoutMs, locale, timezoneId, isMobile, hasTouch, landsOn, beforeSignIn } = options;
  return async (viewport, context = {}) => {
    if (!first) {
      first = openSignedIn(t, { ...options, ...context, viewport });
      return first;
    }
    return (await first).openAnother({ timeoutMs, locale, timezoneId, isMobile, hasTouch, landsOn, beforeSignIn, ...context, viewport });
  };
}

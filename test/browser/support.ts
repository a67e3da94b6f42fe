// What every browser test needs: Debian's chromium driven by playwright-core, the built
// dashboard, a loopback port known before the server starts, and a signed-in page.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, type LaunchOptions, type Page, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const PASSWORD = 'browser test password';

/** A reason to skip, or false: the tests need Debian's chromium, never a downloaded browser. */
export const missingBrowser = fs.existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed: run \`apt-get install -y chromium\` to run the dashboard browser tests`;

/**
 * Chromium's flags for this machine: headless as root, and none of the background connections a
 * closed network refuses.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** How Chromium is started: the one a pass of `npm test` shares (scripts/test.js), or a file's own when run alone. */
export const CHROMIUM_LAUNCH: LaunchOptions = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS };

export { freePort } from '../ports.ts';

/**
 * The test app's address on a loopback port, listening from the first call on: the desktop and the
 * phone suites of one file share one server. A `port` chosen before the app was made (its BASE_URL) is kept.
 */
export async function listenOnce(app: { listen(options: { port: number; host: string }): Promise<unknown>; server: net.Server }, port = 0): Promise<string> {
  if (!app.server.listening) await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
}

/** Builds web/dist when a fresh checkout has none yet. */
export function ensureDashboardBuilt(): void {
  if (fs.existsSync(path.join(ROOT, 'web/dist/index.html'))) return;
  const build = spawnSync(process.execPath, ['scripts/build-web.js'], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(build.status, 0, 'building the dashboard failed');
}

export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  /** A folder of this browser's own, for files a test downloads or uploads. */
  scratchDir: string;
  /** Uncaught errors of the dashboard's pages; a test expects none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * The Chromium this test process shares: the one `npm test` runs for the whole pass (its address in
 * EVENTLOG_CHROMIUM_WS, decision 226), or, for a file run alone, one launched here. Each borrower
 * opens a context of its own in it (cookies and storage apart, as in a profile of its own); when
 * the last one is returned the connection closes, so the process can end.
 */
let shared: { browser: Promise<Browser>; borrowers: number } | undefined;

async function borrowBrowser(): Promise<Browser> {
  if (!shared) {
    const server = process.env.EVENTLOG_CHROMIUM_WS;
    shared = { browser: server ? chromium.connect(server) : chromium.launch(CHROMIUM_LAUNCH), borrowers: 0 };
  }
  const current = shared;
  current.borrowers++;
  try {
    return await current.browser;
  } catch (error) {
    if (shared === current) shared = undefined;
    throw error;
  }
}

async function returnBrowser(): Promise<void> {
  if (!shared || --shared.borrowers > 0) return;
  const { browser } = shared;
  shared = undefined;
  // On a connected browser, close() disconnects and leaves the run's Chromium running.
  await (await browser).close();
}

/**
 * One person's browser with one page: a fresh context of the shared Chromium, isolated like a
 * profile of its own, with a scratch folder of its own (`scratchDir`).
 */
export async function openBrowser(
  options: { viewport?: { width: number; height: number }; timeoutMs?: number } & Pick<
    BrowserContextOptions,
    'isMobile' | 'hasTouch' | 'locale' | 'timezoneId'
  > = {},
): Promise<OpenBrowser> {
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-chromium-'));
  const { viewport, timeoutMs, ...rest } = options;
  // Options left undefined are left out: Playwright reads a present key as a setting.
  const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const contextOptions: BrowserContextOptions = { viewport: viewport ?? { width: 1280, height: 860 }, ...given };
  const browser = await borrowBrowser();
  let context: BrowserContext;
  try {
    context = await browser.newContext(contextOptions);
  } catch (error) {
    await returnBrowser();
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(timeoutMs ?? 8000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    scratchDir,
    pageErrors,
    async close() {
      try {
        await context.close();
      } finally {
        await returnBrowser();
        fs.rmSync(scratchDir, { recursive: true, force: true });
      }
    },
  };
}

/** Signs in on the dashboard's sign-in page and waits for the page it lands on: the feed unless `landsOn` names another. */
export async function signIn(page: Page, base: string, email: string, password = PASSWORD, landsOn?: string): Promise<void> {
  await page.goto(`${base}/app/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The feed by default; an organization with no project lands on its level-1 'Projects'.
  await page.getByRole('heading', landsOn === undefined ? { name: 'Feed' } : { name: landsOn, level: 1 }).waitFor();
}

/** The JSON API with a bearer key, for setting up what a test then looks at in the browser. */
export function apiWithKey(base: () => string, key: () => string) {
  return async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const response = await fetch(`${base()}${url}`, {
      method,
      headers: { authorization: `Bearer ${key()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

// What every browser test needs: Debian's chromium driven by playwright-core, the built
// dashboard, a loopback port known before the server starts, and a signed-in page.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type LaunchOptions, type Page, chromium } from 'playwright-core';

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
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export const launchOptions = (extraArgs: string[] = []): LaunchOptions => ({
  executablePath: CHROMIUM,
  headless: true,
  args: [...CHROMIUM_ARGS, ...extraArgs],
});

/** A free loopback port: URLs the server prints (hooks, invitations) need it before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
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
  /** The profile folder (downloads land here too). */
  userDataDir: string;
  /** Uncaught errors of the dashboard's pages; a test expects none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** One browser profile of its own with one page, the way a person's browser is. */
export async function openBrowser(
  options: { args?: string[]; locale?: string; viewport?: { width: number; height: number }; timeoutMs?: number } = {},
): Promise<OpenBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    ...launchOptions(options.args),
    ...(options.locale ? { locale: options.locale } : {}),
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(options.timeoutMs ?? 8000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    userDataDir,
    pageErrors,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in on the dashboard's sign-in page and waits for the feed. */
export async function signIn(page: Page, base: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/app/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Feed' }).waitFor();
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

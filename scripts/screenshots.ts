#!/usr/bin/env -S node --import tsx
// `npm run screenshots`: retakes the README's pictures of the dashboard (docs/images/feed.png and
// docs/images/charts.png) from a fresh installation, the way the browser tests see it: a throwaway
// embedded PostgreSQL, the server on a loopback port, a month of a made-up shop's events, and
// Debian's chromium through the browser tests' own helpers (test/browser/support.ts), at 1440×900
// in the light theme. Run it after a change that shows on those pages, then commit the images.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { OPERATOR } from '../src/context.ts';
import { createClient } from '../src/db/client.ts';
import { startEmbeddedCluster } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { syncChartTimeZone } from '../src/features/charts/syncChartTimeZone.ts';
import { createKey } from '../src/features/keys/createKey.ts';
import { createOrganization } from '../src/features/organizations/createOrganization.ts';
import { createAccount } from '../src/features/accounts/createAccount.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/services.ts';
import { PASSWORD, ROOT, apiWithKey, ensureDashboardBuilt, freePort, missingBrowser, openBrowser, signIn } from '../test/browser/support.ts';

const IMAGES = path.join(ROOT, 'docs/images');
const VIEWPORT = { width: 1440, height: 900 };

type Api = ReturnType<typeof apiWithKey>;

/** Twelve categories, the busiest first: the chart shows nine and "Other". */
const BACKGROUND = [
  ['page-views', 40],
  ['searches', 26],
  ['logins', 20],
  ['orders', 14],
  ['signups', 10],
  ['payments', 9],
  ['emails', 7],
  ['exports', 5],
  ['refunds', 3],
  ['invites', 2],
  ['errors', 2],
  ['deploys', 1],
] as const;

/**
 * A month of events on the days before today (days of this machine's zone, the charts' TZ), in
 * office hours, with a weekly rhythm and some noise; sent in batches.
 */
async function seedMonth(api: Api, project: string): Promise<void> {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const events: Array<Record<string, unknown>> = [];
  for (let day = 29; day >= 1; day--) {
    const start = new Date(midnight);
    start.setDate(start.getDate() - day);
    const weekday = start.getDay();
    const busy = weekday === 0 || weekday === 6 ? 0.55 : 1;
    const opens = Math.floor(start.getTime() / 1000) + 8 * 3600;
    for (const [category, perDay] of BACKGROUND) {
      const count = Math.max(0, Math.round(perDay * busy * (0.75 + ((day * 7 + category.length * 13) % 10) / 20)));
      for (let n = 0; n < count; n++) {
        events.push({ project, category, title: `${category} ${n + 1}`, created_at: opens + ((n * 3571 + day * 977) % (12 * 3600)) });
      }
    }
  }
  for (let start = 0; start < events.length; start += 1000) {
    const reply = await api('POST', '/api/events/batch', { events: events.slice(start, start + 1000) });
    if (reply.status >= 300) throw new Error(`seeding the month: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
}

/**
 * Today's events, as the feed's first screen shows them: people by name, icons, tags, a notify
 * event. Icons are symbols the machine's fonts draw (Debian's chromium has no colour emoji font
 * here); an event without one shows its category's initial.
 */
async function seedToday(api: Api, project: string, now: number): Promise<void> {
  const people = [
    ['usr_ada', 'Ada Lovelace', 'pro'],
    ['usr_grace', 'Grace Hopper', 'team'],
    ['usr_alan', 'Alan Turing', 'free'],
    ['usr_katherine', 'Katherine Johnson', 'pro'],
  ] as const;
  for (const [userId, name, plan] of people) {
    await api('POST', '/api/identify', { project, user_id: userId, properties: { name, plan } });
  }
  const today: Array<Record<string, unknown>> = [
    { category: 'signups', title: 'New signup', user_id: 'usr_katherine', tags: { plan: 'pro', source: 'newsletter' } },
    {
      category: 'deploys',
      title: 'Deployed v2.14.0 to production',
      icon: '✓',
      description: 'Checkout: **faster** card form, `3-D Secure` retries',
      tags: { env: 'production' },
    },
    { category: 'payments', title: 'Payment received: €249.00', icon: '€', user_id: 'usr_grace', tags: { plan: 'team', seats: 5 } },
    {
      category: 'errors',
      title: 'Checkout failed: card declined',
      icon: '⚠',
      notify: true,
      user_id: 'usr_alan',
      tags: { provider: 'stripe', code: 'card_declined' },
    },
    { category: 'orders', title: 'Order #10482 shipped', user_id: 'usr_ada', url: 'https://shop.example.com/orders/10482', tags: { carrier: 'DHL' } },
    { category: 'payments', title: 'Payment received: €49.00', icon: '€', user_id: 'usr_ada', tags: { plan: 'pro' } },
    { category: 'signups', title: 'New signup', user_id: 'usr_alan', tags: { plan: 'free', source: 'search' } },
    { category: 'invites', title: 'Grace invited 3 teammates', icon: '✉', user_id: 'usr_grace' },
    { category: 'refunds', title: 'Refund issued: €19.00', icon: '↩️', user_id: 'usr_alan', description: 'Duplicate charge' },
  ];
  // Oldest first, a few minutes apart, the last a minute ago.
  for (const [index, event] of today.entries()) {
    const reply = await api('POST', '/api/events', { project, created_at: now - 60 - (today.length - 1 - index) * 420, ...event });
    if (reply.status !== 201) throw new Error(`seeding today: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
}

async function main(): Promise<void> {
  if (missingBrowser) throw new Error(missingBrowser);
  ensureDashboardBuilt();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-screenshots-'));
  // As root, PostgreSQL runs as the `postgres` system user, which must pass through to data/.
  fs.chmodSync(workDir, 0o711);
  const cluster = await startEmbeddedCluster(path.join(workDir, 'data'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...process.env, DATABASE_URL: cluster.url, BASE_URL: base, PORT: String(port) });
  const sql = createClient(cluster.url, { timeZone: config.timeZone, max: 8 });
  let stopServices: (() => Promise<void>) | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrate(sql);
    await syncChartTimeZone(sql, config.timeZone);
    const services = await createServices(config, sql, createLogger('silent'));
    stopServices = services.close;
    app = await buildApp({ services: services.services });
    await app.listen({ port, host: '127.0.0.1' });

    const operator = { services: services.services, actor: OPERATOR };
    const organization = await createOrganization({ ctx: operator, input: { name: 'Acme' } });
    const email = 'ops@acme.example';
    await createAccount({ ctx: operator, input: { organizationId: organization.id, email, password: PASSWORD } });
    const key = (await createKey({ ctx: { ...operator, organizationId: organization.id }, input: { name: 'Screenshots' } })).key;
    const api = apiWithKey(
      () => base,
      () => key,
    );
    const created = (await api('POST', '/api/projects', { name: 'Web shop' })).body as { id: string };
    const project = created.id;
    const now = Math.floor(Date.now() / 1000);
    await seedMonth(api, project);
    await seedToday(api, project, now);

    const browser = await openBrowser({ viewport: VIEWPORT, locale: 'en-US', timeoutMs: 20_000 });
    try {
      const { page } = browser;
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      await signIn(page, base, email);
      fs.mkdirSync(IMAGES, { recursive: true });

      await page.goto(`${base}/app/p/${project}`);
      await page.getByRole('heading', { name: 'Refund issued: €19.00' }).waitFor();
      await page.locator('[data-testid="event-list"][aria-busy="false"]').waitFor({ state: 'attached' });
      // Nothing hovered or focused: the picture shows rows at rest.
      await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height - 4);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.screenshot({ path: path.join(IMAGES, 'feed.png') });

      await page.goto(`${base}/app/p/${project}/charts`);
      await page.getByRole('heading', { name: 'Charts', level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Legend' }).getByRole('button').nth(9).waitFor();
      await page.mouse.move(VIEWPORT.width - 4, 4);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.screenshot({ path: path.join(IMAGES, 'charts.png'), fullPage: true });
      if (browser.pageErrors.length) throw new Error(`the dashboard failed: ${browser.pageErrors.join('; ')}`);
    } finally {
      await browser.close();
    }
    console.log(`Wrote ${path.relative(ROOT, path.join(IMAGES, 'feed.png'))} and ${path.relative(ROOT, path.join(IMAGES, 'charts.png'))}`);
  } finally {
    await app?.close();
    await stopServices?.();
    await sql.end({ timeout: 5 });
    await cluster.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();

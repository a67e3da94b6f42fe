// Issue 28's phone defects, checked at desktop (1440×900) and phone (390×844) widths in light
// and dark: the members' role selects keep room for "Member"; the project tabs show a scroll cue
// at each end with tabs beyond it and scroll the active tab into view; the attempt log names each
// delivery's event by title with a link to it in the feed, and never breaks an address mid-port.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import { startWorker } from '../destinations/support.ts';
import { waitUntil } from '../wait.ts';
import { useTestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { PASSWORD, ROOT, freePort, missingBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base, ALLOW_PRIVATE_WEBHOOK_URLS: '1' }, { ownDatabase: true });

describe('phone layout of members, project tabs and the attempt log', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let project = '';
  let eventId = 0;
  let refusedHost = '';
  const cleanup: Array<() => Promise<unknown>> = [];

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Phone Layout Org',
      port,
      viewport: SIZES.phone,
      timeoutMs: 10_000,
      seed: async (api, organizationId) => {
        project = (await api('POST', '/api/projects', { name: 'Shop' })).body.id;
        await createAccount({
          ctx: t.operator,
          input: { organizationId, email: `a.very.long.member.address.for.phones-${Date.now()}@example-company.com`, password: PASSWORD, role: 'member' },
        });
        // Nothing listens on this port: every attempt fails with "Connection refused by host:port".
        refusedHost = `127.0.0.1:${await freePort()}`;
        const destination = await api('POST', `/api/projects/${project}/destinations`, {
          name: 'Down server',
          url: `http://${refusedHost}/hook`,
          format: 'json',
        });
        assert.equal(destination.status, 201, JSON.stringify(destination.body));
        const worker = startWorker(t, { retryDelaysMs: [] });
        cleanup.push(() => worker.stop());
        const event = await api('POST', '/api/events', { project, category: 'orders', title: 'Order #309 paid', notify: true });
        assert.equal(event.status, 201);
        eventId = event.body.id as number;
        await waitUntil(async () => (await api('GET', `/api/destinations/${destination.body.id}/health`)).body.deliveries === 1, {
          timeoutMs: 15_000,
          message: 'the delivery',
        });
        await api('POST', `/api/destinations/${destination.body.id}/test`);
      },
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    for (const step of cleanup.reverse()) await step();
    assert.deepEqual(browser?.pageErrors ?? [], []);
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const theme of THEMES) {
      it(`${size}, ${theme}`, async () => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme });

        // The members' role selects show their whole option, the table never scrolls sideways.
        await page.goto(`${base}/app/members`);
        await page.getByTestId('member-row').nth(1).waitFor();
        const selects = await page.locator('.members-table select').evaluateAll((nodes) =>
          nodes.map((node) => {
            const select = node as HTMLSelectElement;
            // The text's own width, measured with the select's font, plus its padding and arrow.
            const probe = document.createElement('span');
            probe.style.font = getComputedStyle(select).font;
            probe.style.position = 'absolute';
            probe.textContent = 'Member';
            document.body.append(probe);
            const needed = probe.getBoundingClientRect().width + 24;
            probe.remove();
            return { width: select.getBoundingClientRect().width, needed };
          }),
        );
        assert.equal(selects.length, 2);
        for (const select of selects) assert.ok(select.width >= select.needed, `a role select is squashed: ${JSON.stringify(select)}`);
        const table = await page
          .locator('.members-table')
          .evaluate((node) => ({ table: node.getBoundingClientRect().width, room: node.parentElement!.clientWidth }));
        assert.ok(table.table <= table.room + 1, `the members table overflows: ${JSON.stringify(table)}`);
        await assertNoAxeViolations(page, `Members, ${size} ${theme}`);
        await page.screenshot({ path: path.join(SHOTS, `members-${size}-${theme}.png`) });

        // The project tabs: a cue at each end with tabs beyond it; the active tab in view.
        const tabs = page.getByTestId('project-tabs');
        const cues = () =>
          tabs.evaluate((node) => ({
            before: getComputedStyle(node, '::before').opacity === '1',
            after: getComputedStyle(node, '::after').opacity === '1',
          }));
        const activeInView = () =>
          tabs.evaluate((node) => {
            const row = node.querySelector('nav')!.getBoundingClientRect();
            const active = node.querySelector('.tab.active')!.getBoundingClientRect();
            return active.left >= row.left - 0.5 && active.right <= row.right + 0.5;
          });
        await page.goto(`${base}/app/p/${project}`);
        await page.getByRole('heading', { name: 'Feed', exact: true }).waitFor();
        await page.waitForFunction(() => document.querySelector('.project-tabs') !== null);
        if (size === 'phone') {
          // The cue fades in (a 0.15 s transition): wait for it to be fully shown.
          await page.waitForFunction(() => {
            const row = document.querySelector('.project-tabs');
            return row !== null && getComputedStyle(row, '::after').opacity === '1';
          });
          assert.deepEqual(await cues(), { before: false, after: true }, 'Feed: more tabs to the right');
        } else {
          assert.deepEqual(await cues(), { before: false, after: false }, 'every tab fits');
        }
        assert.equal(await activeInView(), true);

        await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('button', { name: 'Attempt log' }).waitFor();
        assert.equal(await activeInView(), true, 'the Settings tab is scrolled into view');
        if (size === 'phone') {
          await page.waitForFunction(() => {
            const row = document.querySelector('.project-tabs');
            return row !== null && getComputedStyle(row, '::before').opacity === '1' && getComputedStyle(row, '::after').opacity === '0';
          });
          assert.deepEqual(await cues(), { before: true, after: false }, 'Settings: more tabs to the left');
        }
        // The page itself never scrolls sideways.
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);

        // The attempt log: the event's title, a link to it; the refused address whole.
        await page.getByRole('button', { name: 'Attempt log' }).click();
        const log = page.getByRole('dialog', { name: /Attempt log/ });
        const link = log.getByRole('link', { name: 'Order #309 paid' });
        await link.waitFor();
        await log.getByText('Test delivery').waitFor();
        const addresses = await log.locator('.address').evaluateAll((nodes) =>
          nodes.map((node) => ({
            text: node.textContent,
            title: node.getAttribute('title'),
            lines: Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)),
          })),
        );
        assert.ok(addresses.length >= 1, 'the refused address is marked');
        for (const address of addresses) {
          assert.equal(address.title, refusedHost);
          assert.equal(address.text, refusedHost);
          assert.equal(address.lines, 1, `on one line: ${JSON.stringify(address)}`);
        }
        assert.equal(await log.evaluate((node) => node.scrollWidth <= node.clientWidth), true, 'the dialog never scrolls sideways');
        await assertNoAxeViolations(page, `the attempt log, ${size} ${theme}`);
        await page.screenshot({ path: path.join(SHOTS, `attempt-log-${size}-${theme}.png`) });

        await link.click();
        const detail = page.getByRole('dialog', { name: 'Event details' });
        await detail.getByRole('heading', { name: 'Order #309 paid' }).waitFor();
        assert.equal(new URL(page.url()).searchParams.get('event'), String(eventId));
        await page.keyboard.press('Escape');
        await detail.waitFor({ state: 'detached' });
        // The row fades in: axe judges its colours once it has.
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
        );
        await assertNoAxeViolations(page, `the feed after the link, ${size} ${theme}`);
      });
    }
  }
});

fs.mkdirSync(SHOTS, { recursive: true });

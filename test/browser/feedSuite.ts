// The live feed in a real browser at desktop and phone size, light and dark: compact rows with
// actions on hover, day separators, the detail view, deep links to any event, the keyboard, the
// notify cue and the skeleton. One project per size and theme; screenshots in test-results/.
// feed.test.ts runs it at both sizes, with the touch-screen check.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { DESKTOP, PHONE, type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, freePort, missingBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');
const SIZES = { desktop: DESKTOP, phone: PHONE } as const;
const THEMES = ['light', 'dark'] as const;
const LONG_TITLE = `Checkout failed ${'because the payment provider answered slowly and then not at all '.repeat(8)}`.slice(0, 500);
const LONG_CATEGORY = 'payments-provider-timeouts-in-the-european-region-after-the-latest-deploy';

/** Noon of the local day `daysAgo` days before today, in Unix seconds. */
function noonDaysAgo(daysAgo: number): number {
  const date = new Date();
  date.setDate(date.getDate() - daysAgo);
  date.setHours(12, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

/** The feed's checks at the given sizes (each in light and dark), with the touch-screen check or not. */
export async function feedSuite(sizes: Array<keyof typeof SIZES>, withTouch: boolean): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = useTestApp({ BASE_URL: base });

  describe(`the live feed in a browser (${sizes.join(', ')})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let api: SignedInBrowser['api'];
    const row = (title: string) => page.locator('article.event', { has: page.getByRole('heading', { name: title, exact: true }) });
    const detail = () => page.getByRole('dialog', { name: 'Event details' });

    before(async () => {
      browser = await openSignedIn(t, {
        organization: 'Feed Browser Org',
        port,
        viewport: SIZES.desktop,
        timeoutMs: 10_000,
        // With no project at all, signing in lands on the project list instead of a feed.
        seed: async (api) => {
          await api('POST', '/api/projects', { name: 'Home' });
        },
      });
      ({ page, api } = browser);
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    });

    after(async () => {
      await browser?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    if (withTouch)
      it('on a touch screen (no hover), a row\'s actions are behind "…"', async () => {
        const project = (await api('POST', '/api/projects', { name: 'Feed touch' })).body.id as string;
        assert.equal((await api('POST', '/api/events', { project, category: 'orders', title: 'Touched order' })).status, 201);
        const touchScreen = await browser.openAnother({ viewport: SIZES.phone, isMobile: true, hasTouch: true, timeoutMs: 10_000 });
        try {
          const phone = touchScreen.page;
          await phone.goto(`${base}/app/p/${project}`);
          const touched = phone.locator('article.event', { has: phone.getByRole('heading', { name: 'Touched order' }) });
          await touched.waitFor();
          assert.equal(await phone.evaluate(() => matchMedia('(hover: none)').matches), true);
          const favorite = touched.getByRole('button', { name: 'Add to favorites' });
          assert.equal(await favorite.isVisible(), false, 'hidden until the menu opens');
          await touched.getByRole('button', { name: 'More actions' }).tap();
          await favorite.tap();
          await touched.locator('.event-star').waitFor();
          assert.equal((await api('GET', `/api/events?project=${project}&favorited=true`)).body.events.length, 1);
          await phone.screenshot({ path: path.join(SHOTS, 'feed-phone-touch.png') });
        } finally {
          await touchScreen.close();
        }
      });

    for (const size of sizes) {
      const viewport = SIZES[size];
      for (const theme of THEMES) {
        it(`${size}, ${theme}: rows, day separators, detail, deep links, keyboard, notify cue, skeleton`, async () => {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: theme });
          await page.evaluate(() => localStorage.clear());
          const project = (await api('POST', '/api/projects', { name: `Feed ${size} ${theme}` })).body.id as string;
          const post = async (event: Record<string, unknown>) => {
            const reply = await api('POST', '/api/events', { project, ...event });
            assert.equal(reply.status, 201, JSON.stringify(reply.body));
            return reply.body as { id: number; createdAt: string };
          };
          const old = await post({
            category: 'billing',
            title: 'Old invoice paid',
            description: 'Paid **in full** by [bank](https://example.com/bank)',
            icon: '💶',
            tags: { plan: 'pro' },
            metadata: { invoice: 'INV-7', cents: 4200 },
            user_id: 'ann@example.com',
            created_at: noonDaysAgo(3),
          });
          const yesterday = await post({ category: 'signups', title: 'Yesterday signup', created_at: noonDaysAgo(1) });
          for (let i = 0; i < 55; i++)
            await post({ category: i % 2 ? 'orders' : 'visits', title: `Filler ${i}`, created_at: Math.floor(Date.now() / 1000) - 60 + i });
          await post({ category: LONG_CATEGORY, title: LONG_TITLE, description: 'A very long title', tags: { region: 'eu-west-and-some-more-words' } });

          // 7. Skeleton rows while the first page is slow.
          await page.route('**/api/events?*', async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 700));
            await route.fallback();
          });
          await page.goto(`${base}/app/p/${project}`);
          await page.getByTestId('feed-skeleton').waitFor();
          await page.unroute('**/api/events?*');
          await row('Filler 54').waitFor();
          assert.equal(await page.getByTestId('feed-skeleton').count(), 0, 'the skeleton goes when the events come');

          // 5. The page's h1 comes before the "Categories" heading.
          const headings = await page.locator('h1, h2').allTextContents();
          assert.ok(headings.indexOf('Feed') >= 0 && headings.indexOf('Feed') < headings.indexOf('Categories'), headings.join(' | '));

          // 2. Compact rows: actions show on hover only; a long title is clamped to 3 lines; a long
          // category ends in an ellipsis on one line.
          const long = page.locator('article.event').first();
          const actions = long.locator('.event-actions');
          assert.equal(await actions.evaluate((node) => getComputedStyle(node).opacity), '0');
          await long.hover();
          await page.waitForFunction((node) => getComputedStyle(node as Element).opacity === '1', await actions.elementHandle());
          const title = await long.locator('h3').evaluate((node) => ({
            lines: node.clientHeight / parseFloat(getComputedStyle(node).lineHeight),
            clipped: node.scrollHeight > node.clientHeight + 1,
          }));
          assert.ok(title.lines <= 3.05 && title.clipped, `title: ${JSON.stringify(title)}`);
          const chip = await long
            .locator('.chip-category')
            .evaluate((node) => ({ height: node.getBoundingClientRect().height, ellipsized: node.scrollWidth > node.clientWidth }));
          assert.ok(chip.height < 30 && chip.ellipsized, `category chip: ${JSON.stringify(chip)}`);
          const filler = await row('Filler 10').boundingBox();
          assert.ok(filler && filler.height <= 80, `a plain row is compact: ${filler?.height}px`);
          assert.ok((await long.boundingBox())!.height <= 150, 'the long row stays short');

          // 3. Day separators and exact time on hover.
          const separators = await page.locator('.day-separator').allTextContents();
          assert.equal(separators[0], 'Today');
          assert.match((await row('Filler 30').locator('time').getAttribute('title')) ?? '', /\d{4}-\d{2}-\d{2}T/);
          await shot(page, `feed-${size}-${theme}`);

          // 3. The detail view: the whole title and every field.
          await long.locator('h3').click();
          await detail().waitFor();
          assert.equal((await detail().locator('.event-detail-title').textContent())?.trim(), LONG_TITLE.trim());
          assert.equal(
            await detail()
              .locator('.event-detail-title')
              .evaluate((node) => node.scrollHeight <= node.clientHeight + 1),
            true,
            'not clamped there',
          );
          await page.keyboard.press('Escape');
          await detail().waitFor({ state: 'detached' });

          // 4. A deep link to an event beyond the first page: fetched, opened, shown with its neighbours.
          await page.goto(`${base}/app/p/${project}?event=${old.id}`);
          await detail().waitFor();
          const body = detail().getByTestId('event-detail');
          await body.getByRole('heading', { name: 'Old invoice paid' }).waitFor();
          await body.locator('strong', { hasText: 'in full' }).waitFor();
          await body.getByText('#billing').waitFor();
          await body.getByText(String(old.id), { exact: true }).waitFor();
          assert.match((await body.locator('time').textContent()) ?? '', new RegExp(old.createdAt.slice(0, 19)));
          assert.equal(await body.getByRole('link', { name: 'ann@example.com' }).getAttribute('href'), `/app/p/${project}/users/ann%40example.com`);
          assert.deepEqual(JSON.parse((await body.getByTestId('metadata-json').textContent()) ?? ''), { invoice: 'INV-7', cents: 4200 });
          await page.screenshot({ path: path.join(SHOTS, `feed-detail-${size}-${theme}.png`) });
          await page.keyboard.press('Escape');
          await detail().waitFor({ state: 'detached' });
          await page.getByTestId('feed-anchor').waitFor();
          await row('Old invoice paid').waitFor();
          assert.equal(await row('Old invoice paid').getAttribute('aria-current'), 'true');
          const labels = await page.locator('.day-separator').allTextContents();
          assert.ok(
            labels.some((label) => /^\p{L}+\.? \d{1,2} \p{L}+\.? \d{4}$/u.test(label)),
            `an absolute date: ${labels.join(' | ')}`,
          );
          // A link to yesterday's event shows it under "Yesterday", the older one under its date.
          await page.goto(`${base}/app/p/${project}?event=${yesterday.id}`);
          await detail().getByRole('heading', { name: 'Yesterday signup' }).waitFor();
          await page.keyboard.press('Escape');
          await row('Old invoice paid').waitFor();
          const around = await page.locator('.day-separator').allTextContents();
          assert.equal(around[0], 'Yesterday');
          assert.equal(around.length, 2, around.join(' | '));
          await page.getByRole('button', { name: 'Back to newest' }).click();
          await row('Filler 54').waitFor();

          await page.goto(`${base}/app/p/${project}?event=2147483647`);
          await page.getByRole('alert').filter({ hasText: 'does not exist' }).waitFor();

          // 5. Keyboard: "/" searches, j/k select, Enter opens, f favorites, Escape closes.
          await page.goto(`${base}/app/p/${project}`);
          await row('Filler 54').waitFor();
          await page.keyboard.press('/');
          assert.equal(await page.evaluate(() => document.activeElement?.id), 'feed-search');
          await page.keyboard.type('jk');
          assert.equal(await page.getByLabel('Search events').inputValue(), 'jk', 'letters typed in a field stay there');
          await page.getByRole('button', { name: 'Clear search' }).click();
          await page.locator('body').click({ position: { x: 2, y: viewport.height - 2 } });
          await page.keyboard.press('j');
          await page.keyboard.press('j');
          await page.keyboard.press('k');
          await page.keyboard.press('j');
          const selected = page.locator('article.event-selected');
          assert.equal(await selected.locator('h3').textContent(), 'Filler 54');
          await page.keyboard.press('f');
          await selected.locator('.event-star').waitFor();
          assert.equal((await api('GET', `/api/events?project=${project}&favorited=true`)).body.events[0].title, 'Filler 54');
          await page.keyboard.press('Enter');
          await detail().getByRole('heading', { name: 'Filler 54' }).waitFor();
          await page.keyboard.press('Escape');
          await detail().waitFor({ state: 'detached' });

          // 2. Copy link and delete from the row's actions.
          await row('Filler 52').hover();
          await row('Filler 52').getByRole('button', { name: 'Copy link to event' }).click();
          assert.match(String(await page.evaluate('navigator.clipboard.readText()')), new RegExp(`/app/p/${project}\\?event=\\d+$`));
          await row('Filler 52').hover();
          await row('Filler 52').getByRole('button', { name: 'Delete event' }).click();
          await page.getByRole('dialog', { name: 'Delete this event?' }).getByRole('button', { name: 'Delete event' }).click();
          await row('Filler 52').waitFor({ state: 'detached' });

          // 2. The "N new events" pill is readable when scrolled down.
          await page.mouse.wheel(0, 3000);
          await page.waitForFunction(() => window.scrollY > 300);
          await post({ category: 'orders', title: 'Order while away' });
          const pill = page.getByRole('button', { name: /1 new event/ });
          await pill.waitFor();
          const fit = await pill.evaluate((node) => ({
            height: node.getBoundingClientRect().height,
            fits: node.scrollWidth <= node.clientWidth && node.scrollHeight <= node.clientHeight,
          }));
          assert.ok(fit.height >= 24 && fit.fits, `pill: ${JSON.stringify(fit)}`);
          await pill.click();
          await row('Order while away').waitFor();

          // 6. Notify cue: a toast that opens the event, a title count while away, an optional sound.
          const sound = page.getByRole('button', { name: /^Sound (on|off) for notify events$/ });
          assert.equal(await sound.getAttribute('aria-pressed'), 'false', 'off by default');
          await page.evaluate(() => {
            const counter = window as unknown as { __chimes: number };
            counter.__chimes = 0;
            // Called below with the context as `this`, so tearing it off the prototype is safe.
            // eslint-disable-next-line @typescript-eslint/unbound-method
            const create = AudioContext.prototype.createOscillator;
            AudioContext.prototype.createOscillator = function (this: AudioContext) {
              counter.__chimes += 1;
              return create.call(this);
            };
            document.hasFocus = () => false;
          });
          await post({ category: 'alerts', title: 'Server down', icon: '🚨', notify: true });
          await page.getByTestId('notify-toast').filter({ hasText: 'Server down' }).waitFor();
          await page.waitForFunction(() => document.title.startsWith('(1) '));
          assert.equal(await page.evaluate('window.__chimes'), 0, 'no sound unless asked');
          await post({ category: 'alerts', title: 'Server still down', notify: true });
          await page.waitForFunction(() => document.title.startsWith('(2) '));
          await page.evaluate(() => {
            document.hasFocus = () => true;
            window.dispatchEvent(new Event('focus'));
          });
          await page.waitForFunction(() => !document.title.startsWith('('));
          await page
            .getByTestId('notify-toast')
            .filter({ hasText: 'Server down' })
            .getByRole('link', { name: /Server down/ })
            .click();
          await detail().getByRole('heading', { name: 'Server down' }).waitFor();
          await page.keyboard.press('Escape');
          await sound.click();
          assert.equal(await sound.getAttribute('aria-pressed'), 'true');
          assert.equal(await page.evaluate(() => localStorage.getItem('eventlog.feed.notifySound')), 'on');
          const chimes = Number(await page.evaluate('window.__chimes'));
          await post({ category: 'alerts', title: 'Server back', notify: true });
          await page.getByTestId('notify-toast').filter({ hasText: 'Server back' }).waitFor();
          assert.ok(Number(await page.evaluate('window.__chimes')) > chimes, 'a chime with the sound on');
          await page.reload();
          await row('Server back').waitFor();
          assert.equal(await page.getByRole('button', { name: /^Sound (on|off) for notify events$/ }).getAttribute('aria-pressed'), 'true', 'remembered');
        });
      }
    }
  });
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

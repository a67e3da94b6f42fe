// The dashboard in a real browser (Debian's chromium through playwright-core) against the real
// server, as a signed-in user with one project (dashboardFirstRun.test.ts has the sign-in form,
// keys and projects made in the UI): the built web/dist served by buildApp on a loopback port.
// Screenshots of the main pages land in test-results/ for a human look.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, freePort, missingBrowser } from './support.ts';

const SHOTS = path.join(ROOT, 'test-results');

// Hook URLs are printed with BASE_URL, so the server must know its own address before it starts.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base, ALLOW_PRIVATE_WEBHOOK_URLS: '1' });

/** A loopback receiver for outgoing webhook deliveries. */
function startReceiver() {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return {
    received,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      return `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}/hook`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function shot(page: Page, name: string, { fullPage = false } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

describe('dashboard in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInBrowser['api'];
  let projectId = '';
  const receiver = startReceiver();

  const feedEvent = (title: string) => page.locator('article.event', { has: page.getByRole('heading', { name: title, exact: true }) });

  before(async () => {
    browser = await openSignedIn(t, {
      organization: 'Browser Test Org',
      port,
      viewport: { width: 1280, height: 860 },
      timeoutMs: 8000,
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Web shop' })).body.id;
      },
    });
    ({ context, page, api } = browser);
    if (process.env.DEBUG_BROWSER) {
      page.on('console', (message) => console.error('[browser]', message.type(), message.text()));
      page.on('response', (response) => console.error('[browser]', response.status(), response.url()));
    }
    // Signing in lands on the project's feed; its live connection is open before events are sent.
    await page.locator('.live-open').waitFor();
  });

  after(async () => {
    await browser?.close();
    await receiver.close();
  });

  it('sends an event from the playground and it appears live in the open feed, without reload', async () => {
    await page.evaluate('window.__sameDocument = true');
    const playground = await context.newPage();
    await playground.goto(`${base}/app/p/${projectId}/playground`);
    await playground.getByLabel(/^Category/).fill('signups');
    await playground.getByLabel(/^Title/).fill('Ada signed up');
    await playground.getByLabel('Description').fill('Plan **pro** via [docs](https://example.com/docs)');
    await playground.getByLabel('Icon (emoji)').fill('🎉');
    await playground.getByLabel('User id').fill('user-ada');
    await playground.getByLabel('Tags (JSON object of labels)').fill('{"plan":"pro","source":"ads"}');
    await playground.getByLabel('Metadata (JSON object or array)').fill('{"request":{"path":"/signup","ms":42}}');
    await playground.getByLabel(/^Notify/).check();
    assert.equal(await playground.getByRole('link', { name: 'API keys' }).last().getAttribute('href'), '/app/api');
    const curl = await playground.getByTestId('curl').textContent();
    assert.match(curl ?? '', /Authorization: Bearer \$EVENTLOG_KEY/);
    assert.match(curl ?? '', new RegExp(`"project":"${projectId}"`));
    await playground.getByRole('button', { name: 'Send event' }).click();
    await playground.getByTestId('playground-result').getByText('"Ada signed up"').waitFor();
    await shot(playground, '04-playground');
    await playground.close();

    const card = feedEvent('Ada signed up');
    await card.waitFor();
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'the feed was not reloaded');
    assert.ok(await card.evaluate((node) => node.className.includes('event-notify')), 'notify events are highlighted');
    assert.equal(await card.locator('strong', { hasText: 'pro' }).count(), 1);
    assert.equal(await card.getByRole('link', { name: 'docs' }).getAttribute('rel'), 'noopener noreferrer');
    await card.getByText('user-ada').waitFor();
    const time = card.locator('time');
    assert.match((await time.getAttribute('title')) ?? '', /\d{4}-\d{2}-\d{2}T/);
    await page.getByRole('button', { name: /^signups/ }).waitFor();
  });

  it('announces new events with a pill when scrolled down, and loads them on click', async () => {
    for (let i = 0; i < 30; i++) {
      const created = await api('POST', '/api/events', {
        project: projectId,
        category: i % 2 ? 'orders' : 'visits',
        title: `Filler event ${i}`,
        description: 'Keeps the feed long enough to scroll',
        tags: { batch: 'filler', index: i },
      });
      assert.equal(created.status, 201);
    }
    await feedEvent('Filler event 29').waitFor();
    // The sidebar counts follow live too.
    await page.getByRole('button', { name: 'orders 15' }).waitFor();
    await page.mouse.wheel(0, 4000);
    await page.waitForFunction(() => window.scrollY > 400);
    const before = await page.evaluate('window.scrollY');
    await api('POST', '/api/events', { project: projectId, category: 'orders', title: 'Order while away' });
    const pill = page.getByRole('button', { name: /1 new event/ });
    await pill.waitFor();
    assert.equal(await page.evaluate('window.scrollY'), before, 'the feed did not jump');
    assert.equal(await feedEvent('Order while away').count(), 0, 'not merged while scrolled down');
    await pill.click();
    await feedEvent('Order while away').waitFor();
    await page.waitForFunction(() => window.scrollY < 50);
    await shot(page, '05-feed');
  });

  it('searches (debounced) and filters by a tag badge', async () => {
    await page.getByLabel('Search events').fill('Ada');
    await page.locator('article.event').nth(1).waitFor({ state: 'detached' });
    assert.equal(await page.locator('article.event').count(), 1);
    await feedEvent('Ada signed up').waitFor();

    await page.getByRole('button', { name: 'Clear search' }).click();
    await feedEvent('Filler event 3').waitFor();
    await feedEvent('Ada signed up')
      .getByRole('button', { name: /^Filter by tag\s*plan\s*:\s*pro$/ })
      .click();
    // A tag filter (tag=plan:pro in the URL), not text search.
    await page.waitForURL(/tag=plan%3Apro/);
    assert.equal(await page.getByLabel('Search events').inputValue(), '');
    await feedEvent('Filler event 3').waitFor({ state: 'detached' });
    assert.equal(await page.locator('article.event').count(), 1);

    await page.getByRole('button', { name: 'Remove filter tag plan:pro' }).click();
    await page.getByRole('button', { name: /^orders/ }).click();
    await page.getByRole('heading', { name: '#orders' }).waitFor();
    await feedEvent('Filler event 2').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^All events/ }).click();
    await feedEvent('Filler event 2').waitFor();
  });

  it('favorites an event, opens its detail with the metadata, and deletes another after confirming', async () => {
    const ada = feedEvent('Ada signed up');
    await ada.getByRole('button', { name: 'Add to favorites' }).click();
    await ada.getByRole('button', { name: 'Remove from favorites' }).waitFor();
    const stored = await api('GET', `/api/events?project=${projectId}&search=Ada`);
    assert.equal(stored.body.events[0].favorited, true);

    await ada.locator('h3').click();
    const dialog = page.getByRole('dialog', { name: 'Event details' });
    await dialog.waitFor();
    const json = JSON.parse((await page.getByTestId('metadata-json').textContent()) ?? '');
    assert.deepEqual(json, { request: { path: '/signup', ms: 42 } });
    await shot(page, '06-metadata');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate('document.activeElement?.matches("article.event")'), true, 'focus returns to the row');

    const doomed = feedEvent('Filler event 0');
    await doomed.getByRole('button', { name: 'Delete event' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this event?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete event' }).click();
    await doomed.waitFor({ state: 'detached' });
    const gone = await api('GET', `/api/events?project=${projectId}&search=${encodeURIComponent('Filler event 0')}`);
    assert.equal(
      gone.body.events.some((event: { title: string }) => event.title === 'Filler event 0'),
      false,
    );
  });

  it('renders hostile text as text: no script runs and no javascript: link exists', async () => {
    const hostile = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
    const created = await api('POST', '/api/events', {
      project: projectId,
      category: 'security <b>x</b>',
      title: `Title ${hostile} &amp; &lt;`,
      description: `**bold ${hostile}** [click](javascript:window.__xss=3) [ok](https://example.com/?a=<b>) [data](data:text/html,<script>alert(1)</script>) &quot;`,
      icon: '<i>',
      tags: { '<svg onload=window.__xss=4>': '<img src=x onerror=window.__xss=5>', nested: { deep: true } },
      metadata: { html: hostile, link: 'javascript:window.__xss=6' },
      url: 'javascript:window.__xss=7',
      user_id: hostile,
    });
    assert.equal(created.status, 201);
    await page.evaluate('window.scrollTo(0, 0)');
    const card = page.locator(`article[data-event-id="${created.body.id}"]`);
    await card.waitFor();
    await card.locator('h3').click();
    await page.getByTestId('metadata-json').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Event details' }).waitFor({ state: 'detached' });

    assert.equal(await page.evaluate('window.__xss'), undefined);
    assert.equal(await page.locator('a[href^="javascript:" i], a[href^="data:" i]').count(), 0);
    assert.equal(await page.locator('article.event script, article.event img').count(), 0);
    assert.ok((await card.locator('h3').textContent())?.includes('<script>window.__xss = 1</script>'));
    assert.ok((await card.locator('h3').textContent())?.includes('&amp; &lt;'), 'entities are not decoded');
    assert.equal(await card.locator('h3 a').count(), 0, 'a javascript: url does not become a link');
    await card.getByText('[click](javascript:window.__xss=3)').waitFor();
    await card.getByText('[object Object]').waitFor();
    assert.equal(await card.getByRole('link', { name: 'ok' }).getAttribute('target'), '_blank');
    assert.deepEqual(browser.pageErrors, []);
  });

  it('opens at the event a notification links to, and marks it', async () => {
    const found = await api('GET', `/api/events?project=${projectId}&search=${encodeURIComponent('Filler event 5')}`);
    const target = found.body.events.find((event: { title: string }) => event.title === 'Filler event 5');
    assert.ok(target, 'the filler event exists');
    await page.goto(`${base}/app/p/${projectId}?event=${target.id}`);
    const card = page.locator(`article[data-event-id="${target.id}"]`);
    await card.waitFor();
    await page.waitForFunction((id) => {
      const box = document.querySelector(`article[data-event-id="${id}"]`)?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
    }, target.id);
    assert.ok(Number(await page.evaluate('window.scrollY')) > 0, 'the feed scrolled to it');
    assert.equal(await card.getAttribute('aria-current'), 'true');
    assert.equal(await page.locator('article[aria-current]').count(), 1, 'only that event is marked');
    // The link also opens the event's detail.
    const dialog = page.getByRole('dialog', { name: 'Event details' });
    await dialog.getByRole('heading', { name: 'Filler event 5' }).waitFor();
    await shot(page, '06b-linked-event');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('keeps insight cards up to date live', async () => {
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('heading', { name: 'Insights' }).waitFor();
    assert.equal((await api('POST', '/api/insight', { project: projectId, title: 'Active users', value: 41, icon: '👥' })).status, 200);
    await page.getByText('41', { exact: true }).waitFor();
    await api('POST', '/api/insight', { project: projectId, title: 'Active users', value: 42 });
    await page.getByText('42', { exact: true }).waitFor();
    await api('POST', '/api/insight', { project: projectId, title: 'Revenue', value: '$1,234', icon: '💰' });
    await page.getByText('$1,234').waitFor();
    await shot(page, '07-insights');
  });

  it('draws a chart of events per day per category', async () => {
    await page.getByRole('link', { name: 'Charts' }).click();
    await page.getByRole('heading', { name: 'Charts' }).waitFor();
    const totals = page.getByRole('table', { name: /Totals/ });
    await totals.getByRole('cell', { name: 'orders', exact: true }).waitFor();
    const box = await page.getByTestId('chart-canvas').boundingBox();
    assert.ok(box && box.width > 200 && box.height > 100, 'the chart has a size');
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByRole('combobox', { name: 'Category' }).fill('orders');
    await page.getByRole('listbox', { name: 'Categories' }).getByText('orders', { exact: true }).click();
    await totals.getByRole('cell', { name: 'visits', exact: true }).waitFor({ state: 'detached' });
    await shot(page, '08-charts');
  });

  it('creates an incoming webhook and a real POST to its URL makes an event', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Incoming webhooks' }).waitFor();
    await page.getByLabel('Name', { exact: true }).first().fill('Payments');
    await page.getByLabel('Default category').fill('payments');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const url = await page.getByTestId('hook-url').first().inputValue();
    assert.match(url, new RegExp(`^${base}/hook/whk_`));
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Payment received\nOrder #1042' });
    assert.equal(response.status, 201);
    const events = await api('GET', `/api/events?project=${projectId}&category=payments`);
    assert.equal(events.body.events[0]?.title, 'Payment received');
  });

  it('adds an outgoing destination and the Test button delivers to it', async () => {
    if (!page.url().endsWith('/settings')) await page.getByRole('link', { name: 'Settings' }).click();
    const target = await receiver.listen();
    await page.getByLabel('Name', { exact: true }).nth(1).fill('Local receiver');
    await page.getByLabel('URL', { exact: true }).fill(target);
    await page.getByRole('button', { name: 'Add destination' }).click();
    const row = page.getByTestId('destination-row').first();
    await row.waitFor();
    await row.getByRole('button', { name: 'Test' }).click();
    const result = page.getByTestId('destination-test-result');
    await result.waitFor();
    assert.match((await result.textContent()) ?? '', /delivered/);
    assert.ok(receiver.received.length >= 1, 'the receiver got the test delivery');
    assert.ok(receiver.received[0]?.headers['webhook-signature'], 'JSON deliveries are signed');
    await page
      .getByTestId('destination-last-status')
      .getByText(/succeeded/)
      .waitFor();
    await shot(page, '09-settings');

    await row.getByRole('button', { name: 'Attempt log' }).click();
    const log = page.getByRole('dialog', { name: /Attempt log/ });
    await log.waitFor();
    // The log lists deliveries, or says in words why it cannot (an older server answers 404).
    await log.locator('.delivery, .banner-error, p.muted').first().waitFor();
    await shot(page, '09b-attempt-log');
    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
  });

  it('registers the service worker for push, and it shows a pushed notification', async () => {
    await context.grantPermissions(['notifications'], { origin: base });
    // No push service is reachable from here, so the browser's subscribe step is stood in for
    // (a well-formed subscription); everything else is real: worker, permission, VAPID key, POST.
    // A string, not a function: the test runner's transpiler would add helpers the page lacks.
    await page.addInitScript(`(() => {
      const bytes = (length, first) => {
        const raw = String.fromCharCode(first, ...Array.from({ length: length - 1 }, (_, i) => (i * 7) % 256));
        return btoa(raw).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
      };
      let current = null;
      PushManager.prototype.getSubscription = async () => current;
      PushManager.prototype.subscribe = async () => {
        const json = { endpoint: 'https://push.example.test/send/abc123', keys: { p256dh: bytes(65, 4), auth: bytes(16, 9) } };
        current = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => { current = null; return true; } };
        return current;
      };
    })();`);
    await page.goto(`${base}/app/p/${projectId}/settings`);
    await page.getByRole('button', { name: 'Enable push on this device' }).click();
    await page.getByText('This browser will now get a notification').waitFor();
    await page.getByRole('button', { name: 'Turn off push on this device' }).click();
    await page.getByText('Push notifications are off for this browser.').waitFor();
    assert.equal(await page.evaluate("navigator.serviceWorker.getRegistration('/app/').then((r) => r?.scope ?? null)"), `${base}/app/`);

    // Deliver a push message straight to the worker, as the push service would.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((registration) => registration.scopeURL === `${base}/app/` && !registration.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base,
      registrationId: await registrationId,
      data: JSON.stringify({ title: 'Big sale', body: 'Order #7 paid', icon: '💰', url: `${base}/app/p/${projectId}` }),
    });
    const shown = async () =>
      page.evaluate(
        "navigator.serviceWorker.getRegistration('/app/').then((r) => r.getNotifications()).then((list) => list.map((n) => [n.title, n.body, n.data && n.data.url]))",
      );
    let notifications: unknown = [];
    for (let i = 0; i < 50 && (notifications as unknown[]).length === 0; i++) {
      notifications = await shown();
      if ((notifications as unknown[]).length === 0) await page.waitForTimeout(100);
    }
    assert.deepEqual(notifications, [['💰 Big sale', 'Order #7 paid', `${base}/app/p/${projectId}`]]);
    await cdp.detach();
  });

  it('exports every project and imports the file back with a report', async () => {
    await page.getByRole('link', { name: 'Export & import' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download export' }).click()]);
    const file = path.join(browser.scratchDir, 'export.json');
    await download.saveAs(file);
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(document.version, 1);
    assert.ok(document.projects.some((project: { id: string }) => project.id === projectId));

    await page.getByLabel('Export file (.json)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    assert.match((await report.textContent()) ?? '', /Imported \d+ projects?/);
    await shot(page, '10-transfer');

    fs.writeFileSync(file, JSON.stringify({ version: 1, projects: [{ name: 'Bad', events: [{ title: 'no category' }] }] }));
    await page.getByLabel('Export file (.json)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByTestId('import-error').waitFor();
  });

  it('follows the dark colour scheme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/app/p/${projectId}`);
    await feedEvent('Ada signed up').waitFor();
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    assert.notEqual(background, 'rgb(246, 247, 249)', 'the dark palette applies');
    await shot(page, '13-feed-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('fits a 360px phone screen', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${base}/app/p/${projectId}`);
    await feedEvent('Ada signed up').waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(Number(overflow) <= 0, `no horizontal scrolling (overflow ${String(overflow)}px)`);
    await shot(page, '11-feed-phone');
    await page.goto(`${base}/app/p/${projectId}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shot(page, '12-settings-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const session = await fetch(`${base}/api/session`);
    assert.equal(session.status, 401);
  });
});

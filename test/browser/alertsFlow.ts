// The Alerts tab's browser flow, run at desktop width and phone width
// (both in alerts.test.ts): an alert made from the feed's filters, watched as it fires (the banner
// on every tab) and resolves, muted, its history read. The file runs the engine in-process.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { AlertEngine } from '../../src/features/alerts/alertEngine.ts';
import { createAccount } from '../../src/features/accounts/createAccount.ts';
import type { TestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { PASSWORD, ensureDashboardBuilt, openBrowser } from './support.ts';

/** Listens on `port` and runs the alert engine (every 0.3 s) for the file's tests. */
export function useAlertEngine(t: TestApp, port: number): void {
  let engine: AlertEngine | undefined;
  before(async () => {
    ensureDashboardBuilt();
    await t.app.listen({ port, host: '127.0.0.1' });
    engine = new AlertEngine({ sql: t.services.sql, bus: t.services.bus, log: t.services.log, intervalSeconds: 0.3, timeZone: t.services.config.timeZone });
    engine.start();
  });
  after(async () => {
    await engine?.stop();
  });
}

export async function alertFlow(t: TestApp, base: string, label: string, viewport: { width: number; height: number }): Promise<void> {
  const org = await t.org();
  const project = await org.project('Shop');
  const send = async () =>
    assert.equal((await org.post('/api/events', { project, category: 'errors', title: 'Checkout failed', tags: { area: 'cart' } })).status, 201);
  await send();
  // A hand set-up, not openSignedIn (it signs in at /app/): this is the one test of signing in on a link whose query (the filters) must outlive it.
  const email = `alerts-${label}-${Date.now()}@example.com`;
  await createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password: PASSWORD } });
  const browser = await openBrowser({ viewport, timeoutMs: 15_000 });
  try {
    const { page } = browser;
    await page.goto(`${base}/app/p/${project}?category=errors&tag=area:cart`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Checkout failed').first().waitFor();

    await page.getByTestId('alert-me').click();
    const dialog = page.getByRole('dialog');
    // Point 16: "Alert me…" names the alert after the filters; the category is the project's picker.
    assert.equal(await dialog.getByLabel('Name').inputValue(), 'errors events tagged area:cart');
    assert.equal(await dialog.getByLabel('Category', { exact: true }).evaluate((field) => field.tagName), 'SELECT');
    // Point 4: a refusal sits beside its field in words, never under Name as schema text.
    await dialog.getByLabel('Number of events').fill('0');
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    await dialog.getByTestId('alert-threshold-error').getByText('Use a whole number of events from 1 to 1,000,000.').waitFor();
    assert.equal(await dialog.getByTestId('alert-name-error').count(), 0);
    assert.equal(await dialog.getByLabel('Number of events').getAttribute('aria-invalid'), 'true');
    await assertNoAxeViolations(page, 'the alert form with an error');
    await dialog.getByLabel('Name').fill('Checkout errors');
    assert.equal(await dialog.getByLabel('Category', { exact: true }).inputValue(), 'errors');
    assert.equal(await dialog.getByLabel(/Tags/).inputValue(), 'area:cart');
    await dialog.getByLabel('Number of events').fill('2');
    await dialog.getByLabel('In the last').fill('10');
    await dialog.getByLabel('Unit').selectOption('minutes');
    await dialog.getByTestId('alert-preview').getByText('1 matching event in the last 10 minutes right now.').waitFor();
    // The first event may already be older than 10 s on a loaded machine: the count is 0 or 1.
    await dialog.getByLabel('Unit').selectOption('seconds');
    await dialog
      .getByTestId('alert-preview')
      .getByText(/^[01] matching events? in the last 10 seconds right now\.$/)
      .waitFor();
    // Point 4: under 10 s there is no count to show, and the old one is not kept under new words.
    await dialog.getByLabel('In the last').fill('5');
    await dialog.getByTestId('alert-preview').getByText('Choose a window of 10 seconds to 365 days to count matching events.').waitFor();
    await dialog.getByLabel('In the last').fill('10');
    await dialog.getByRole('button', { name: 'Create alert' }).click();

    const row = page.getByTestId('alert-row').filter({ hasText: 'Checkout errors' });
    // Point 11: the condition in words, the category as code, no backticks.
    await row.locator('.alert-condition').getByText('Fires when there are at least 2 errors events tagged area:cart in 10 seconds.').waitFor();
    assert.equal(await row.locator('.alert-condition code').textContent(), 'errors');
    // Point 5: the count is the window's now, with the time it was read.
    await row
      .getByTestId('alert-count')
      .getByText(/^0 matching events in the last 10 seconds, as of \d{1,2}:\d{2}/)
      .waitFor({ timeout: 45_000 });
    assert.equal(await row.getByTestId('alert-state').textContent(), 'OK');

    await send();
    await send();
    await row.getByTestId('alert-state').getByText('Firing').waitFor();
    await page.getByTestId('firing-alerts-banner').getByText('“Checkout errors”').waitFor();
    // Point 12: on the Alerts tab the banner does not link to itself; it lines up with the content.
    assert.equal(await page.getByTestId('firing-alerts-banner').getByRole('link', { name: 'Open Alerts' }).count(), 0);
    const banner = (await page.getByTestId('firing-alerts-banner').boundingBox())!;
    const content = (await page.locator('main').boundingBox())!;
    assert.ok(
      banner.x >= content.x + 8 && banner.x + banner.width <= content.x + content.width - 8,
      `the banner inside the content: ${JSON.stringify([banner, content])}`,
    );
    await assertNoAxeViolations(page, 'the Alerts tab while firing');
    await page.getByRole('link', { name: 'Feed' }).first().click();
    await page.getByTestId('firing-alerts-banner').waitFor();
    await page.getByText('Alert firing: Checkout errors').first().waitFor();
    // Dismissed, it stays closed on this firing.
    await page.getByTestId('firing-alerts-banner').getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('firing-alerts-banner').waitFor({ state: 'detached' });
    await page.goto(`${base}/app/p/${project}/alerts`);
    await row.getByTestId('alert-state').waitFor();
    assert.equal(await page.getByTestId('firing-alerts-banner').count(), 0);

    // The two events leave the 10 s window: the alert resolves and the banner goes.
    await row.getByTestId('alert-state').getByText('OK').waitFor({ timeout: 30_000 });
    await page.getByTestId('firing-alerts-banner').waitFor({ state: 'detached' });

    await row.getByLabel('Mute Checkout errors').selectOption('3600');
    await row.getByTestId('alert-muted').waitFor();
    // Point 11: a time, not "MUTED UNTIL IN 59 MINUTES".
    assert.match((await row.getByTestId('alert-muted').textContent()) ?? '', /^Muted until \d{1,2}:\d{2}\s?(AM|PM)?$/);
    assert.equal(await row.getByTestId('alert-muted').evaluate((badge) => getComputedStyle(badge).textTransform), 'none');
    const muted = (await org.get(`/api/projects/${project}/alerts`)).body[0].mutedUntil;
    assert.ok(Date.parse(muted) > Date.now() + 3_500_000);

    await row.getByRole('button', { name: 'History' }).click();
    const history = row.getByTestId('alert-history');
    await history.getByText('Resolved').waitFor();
    await history.getByText('Fired').waitFor();
    // Point 11: each transition at its date and time, and a way to its events.
    assert.match((await history.locator('li').first().locator('time').first().textContent()) ?? '', /\d{4}, \d{2}:\d{2}/);
    assert.equal(await history.getByRole('link', { name: 'its events in the feed' }).count(), 2);
    await assertNoAxeViolations(page, 'the alert with its history');

    // Point 16: the dead man's switch, worded as one, and why a new one has no count yet.
    await page.getByRole('button', { name: 'New alert' }).click();
    await dialog.getByRole('button', { name: /^Dead man’s switch/ }).click();
    await dialog.getByLabel('Category', { exact: true }).selectOption('errors');
    await dialog.getByLabel('Name').fill('Heartbeat');
    await dialog
      .getByTestId('alert-preview')
      .getByText(/dead man’s switch: it fires when no matching event arrives within the window/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    const heartbeat = page.getByTestId('alert-row').filter({ hasText: 'Heartbeat' });
    await heartbeat.locator('.alert-condition').getByText('Fires when no errors event arrives for 1 hour (a dead man’s switch).').waitFor();
    const count = await heartbeat.getByTestId('alert-count').textContent();
    assert.ok(
      /^Not checked yet: the first check is when its first 1 hour window ends, in \d+ minutes/.test(count ?? '') ||
        /matching events? in the last 1 hour, as of/.test(count ?? ''),
      count ?? '',
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await assertNoAxeViolations(page, `the alerts (${colorScheme})`);
    }
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
}

// The Alerts tab's browser flow, run at desktop width (alerts.test.ts) and phone width
// (alertsPhone.test.ts): an alert made from the feed's filters, watched as it fires (the banner
// on every tab) and resolves, muted, its history read. Each file runs the engine in-process.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { AlertEngine } from '../../src/features/alerts/alertEngine.ts';
import { createUser } from '../../src/features/users/createUser.ts';
import type { TestApp } from '../helpers.ts';
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
  const send = async () => assert.equal((await org.post('/api/events', { project, category: 'errors', title: 'Checkout failed', tags: { area: 'cart' } })).status, 201);
  await send();
  const email = `alerts-${label}-${Date.now()}@example.com`;
  await createUser({ ctx: t.operator, input: { organizationId: org.id, email, password: PASSWORD } });
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
    await dialog.getByLabel('Name').fill('Checkout errors');
    assert.equal(await dialog.getByLabel('Category', { exact: true }).inputValue(), 'errors');
    assert.equal(await dialog.getByLabel(/Tags/).inputValue(), 'area:cart');
    await dialog.getByLabel('Number of events').fill('2');
    await dialog.getByLabel('In the last').fill('10');
    await dialog.getByLabel('Unit').selectOption('minutes');
    await dialog.getByTestId('alert-preview').getByText('1 matching event in the last 10 minutes right now.').waitFor();
    // The first event may already be older than 10 s on a loaded machine: the count is 0 or 1.
    await dialog.getByLabel('Unit').selectOption('seconds');
    await dialog.getByTestId('alert-preview').getByText(/^[01] matching events? in the last 10 seconds right now\.$/).waitFor();
    await dialog.getByRole('button', { name: 'Create alert' }).click();

    const row = page.getByTestId('alert-row').filter({ hasText: 'Checkout errors' });
    await row.getByText('at least 2 `errors` events tagged area:cart in 10 seconds').waitFor();
    await row.getByTestId('alert-count').getByText('0').waitFor();
    assert.equal(await row.getByTestId('alert-state').textContent(), 'OK');

    await send();
    await send();
    await row.getByTestId('alert-state').getByText('Firing').waitFor();
    await page.getByTestId('firing-alerts-banner').getByText('“Checkout errors”').waitFor();
    await page.getByRole('link', { name: 'Feed' }).first().click();
    await page.getByTestId('firing-alerts-banner').waitFor();
    await page.getByText('Alert firing: Checkout errors').first().waitFor();
    await page.getByTestId('firing-alerts-banner').getByRole('link', { name: 'Open Alerts' }).click();

    // The two events leave the 10 s window: the alert resolves and the banner goes.
    await row.getByTestId('alert-state').getByText('OK').waitFor({ timeout: 30_000 });
    await page.getByTestId('firing-alerts-banner').waitFor({ state: 'detached' });

    await row.getByLabel('Mute Checkout errors').selectOption('3600');
    await row.getByTestId('alert-muted').waitFor();
    const muted = (await org.get(`/api/projects/${project}/alerts`)).body[0].mutedUntil;
    assert.ok(Date.parse(muted) > Date.now() + 3_500_000);

    await row.getByRole('button', { name: 'History' }).click();
    const history = row.getByTestId('alert-history');
    await history.getByText('Resolved').waitFor();
    await history.getByText('Fired').waitFor();
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
}

// Insights and project deletion in a real browser (Debian's chromium through playwright-core),
// against the real server serving the built web/dist. The reader's locale is German (the
// context's locale, which Intl and toLocaleString follow), so counters must show German digit grouping.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { missingBrowser } from './support.ts';

const t = useTestApp();

describe('insights and project deletion in a browser', { skip: missingBrowser }, () => {
  let browser: SignedInBrowser;
  let page: Page;
  let base = '';
  let projectId = '';
  const api: SignedInBrowser['api'] = (...request) => browser.api(...request);

  const card = (title: string) => page.getByTestId('insight-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

  before(async () => {
    // The reader's locale is German: counters must show German digit grouping.
    browser = await openSignedIn(t, {
      organization: 'Insights Browser Org',
      viewport: { width: 1280, height: 860 },
      locale: 'de-DE',
      timeoutMs: 10000,
      seed: async (api) => {
        projectId = (await api('POST', '/api/projects', { name: 'Counter shop' })).body.id;
      },
    });
    ({ base, page } = browser);
  });

  after(async () => {
    await browser?.close();
  });

  it("creates, edits and deletes an insight; counters show the reader's digit grouping", async () => {
    await page.goto(`${base}/app/p/${projectId}/insights`);
    await page.getByRole('heading', { name: 'Insights' }).waitFor();
    await page.getByRole('button', { name: 'New insight' }).click();
    const dialog = page.getByRole('dialog', { name: 'New insight' });
    await dialog.getByLabel('Title').fill('Revenue');
    await dialog.getByLabel('Value').fill('1234567.5');
    await dialog.getByLabel('Icon (optional)').fill('💶');
    await dialog.getByRole('button', { name: 'Create insight' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card('Revenue').getByText('1.234.567,5').waitFor();
    assert.equal((await api('GET', `/api/insights?project=${projectId}`)).body[0].value, '1234567.5', 'stored as typed');

    await card('Revenue').getByRole('button', { name: 'Edit Revenue' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “Revenue”' });
    await edit.getByLabel('Value').fill('2000');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await card('Revenue').getByText('2.000', { exact: true }).waitFor();

    // An increment made through the API shows up live.
    assert.deepEqual((await api('PATCH', '/api/insight', { project: projectId, title: 'Revenue', value: { $inc: 5 } })).body, { ok: true, value: '2005' });
    await card('Revenue').getByText('2.005', { exact: true }).waitFor();

    // Text stays text.
    await api('POST', '/api/insight', { project: projectId, title: 'Status', value: 'green' });
    await card('Status').getByText('green', { exact: true }).waitFor();

    await card('Revenue').getByRole('button', { name: 'Delete Revenue' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete insight?' });
    await confirm.getByRole('button', { name: 'Delete insight' }).click();
    await card('Revenue').waitFor({ state: 'detached' });
    const left = (await api('GET', `/api/insights?project=${projectId}`)).body.map((i: { title: string }) => i.title);
    assert.deepEqual(left, ['Status']);
  });

  it('keeps long numbers on one line and wraps long text inside the card, on a phone too', async () => {
    await api('POST', '/api/insight', { project: projectId, title: 'Lifetime events', value: '123456789012' });
    await api('POST', '/api/insight', { project: projectId, title: 'Huge counter', value: '123456789012345678901234' });
    const words = 'The primary database replica in eu-west-1 is lagging behind; failover is scheduled';
    await api('POST', '/api/insight', { project: projectId, title: 'Status note', value: words });
    await api('POST', '/api/insight', { project: projectId, title: 'Trace id', value: 'a'.repeat(120) });
    for (const viewport of [
      { width: 1280, height: 860 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/app/p/${projectId}/insights`);
      await card('Lifetime events').getByText('123.456.789.012', { exact: true }).waitFor();
      // A compact figure on the card, every digit in the tooltip.
      const huge = card('Huge counter').locator('.insight-value');
      assert.match((await huge.getAttribute('title')) ?? '', /^123\.456\.789\.012\.345\.678\.901\.234/);
      for (const title of ['Lifetime events', 'Huge counter']) {
        const lines = await card(title)
          .locator('.insight-value')
          .evaluate((node) => Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)));
        assert.equal(lines, 1, `${title}: a number never breaks`);
      }
      for (const title of ['Status note', 'Trace id', 'Lifetime events']) {
        const fits = await card(title).evaluate((node) => node.scrollWidth <= node.clientWidth);
        assert.ok(fits, `${title}: the value stays inside its card`);
      }
      // Text breaks between words: no line of the note ends inside a word.
      const noteLines = await card('Status note')
        .locator('.insight-value')
        .evaluate((node) => Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)));
      assert.ok(noteLines > 1, 'the note wraps');
      assert.ok(await page.evaluate((width) => document.documentElement.scrollWidth <= width, viewport.width), 'no sideways scroll');
      await page.screenshot({ path: `test-results/insights-${viewport.width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    for (const title of ['Lifetime events', 'Huge counter', 'Status note', 'Trace id']) {
      const insight = (await api('GET', `/api/insights?project=${projectId}`)).body.find((i: { title: string }) => i.title === title);
      await api('POST', `/api/insight/${insight.id}/delete`);
    }
  });

  it('deletes the project from Settings only after its name is typed', async () => {
    await page.goto(`${base}/app/p/${projectId}/settings`);
    await page.getByRole('heading', { name: 'Delete project', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete this project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project?' });
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    assert.equal(await confirm.isDisabled(), true, 'nothing typed yet');
    await dialog.getByLabel('Project name').fill('Counter');
    assert.equal(await confirm.isDisabled(), true, 'a part of the name does not confirm');
    await dialog.getByLabel('Project name').fill('Counter shop');
    await confirm.click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    assert.deepEqual((await api('GET', '/api/projects')).body, []);
    assert.equal((await api('GET', `/api/insights?project=${projectId}`)).status, 404);
    assert.deepEqual(browser.pageErrors, []);
  });
});

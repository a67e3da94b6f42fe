// Channel destinations in a real browser, at 1440×900 and 390×844 in one
// file (channels.test.ts), in light and dark: the form's message preview
// (a grouped one too), a Telegram and a grouped ntfy destination created through the form and
// pointed at local fake services, Test on each, the service's answer in the attempt log, the
// credentials masked on the page, and axe clean at every step.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { type Receiver, startReceiver } from '../destinations/support.ts';
import type { TestApp } from '../helpers.ts';
import { axeViolations, waitForLoaded } from './pageChecks.ts';
import { type SignedInBrowser, openSignedIn } from './signedInBrowser.ts';
import { ROOT, missingBrowser } from './support.ts';

const TELEGRAM_ANSWER = '{"ok":true,"result":{"message_id":4242,"chat":{"id":-100123}}}';
const NTFY_ANSWER = '{"id":"n7Yq2","event":"message","topic":"deploys"}';
const BOT_TOKEN = '123456:BOT-SECRET-TOKEN';
const NTFY_TOKEN = 'tk_NTFY-SECRET-TOKEN';

export function channelsSuite(t: TestApp, size: string, viewport: { width: number; height: number }): void {
  describe(`channel destinations in the browser (${size})`, { skip: missingBrowser }, () => {
    let browser: SignedInBrowser;
    let page: Page;
    let base = '';
    let projectId = '';
    let telegram: Receiver;
    let ntfy: Receiver;
    let api: SignedInBrowser['api'];

    /** axe in both themes on the page as it is now, and no sideways scrolling. */
    async function checkPage(where: string): Promise<void> {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        assert.deepEqual(await axeViolations(page), [], `axe on ${where} (${colorScheme})`);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll on ${where} (${colorScheme})`);
      }
    }

    before(async () => {
      telegram = await startReceiver([{ status: 200, headers: { 'content-type': 'application/json' }, body: TELEGRAM_ANSWER }]);
      ntfy = await startReceiver([{ status: 200, headers: { 'content-type': 'application/json' }, body: NTFY_ANSWER }]);
      browser = await openSignedIn(t, {
        organization: 'Channels Org',
        viewport,
        seed: async (api) => {
          projectId = (await api('POST', '/api/projects', { name: 'Shop <Main>' })).body.id;
        },
      });
      ({ base, page, api } = browser);
    });
    after(async () => {
      await browser?.close();
      await telegram?.close();
      await ntfy?.close();
      assert.deepEqual(browser?.pageErrors ?? [], []);
    });

    const form = () => page.locator('form').filter({ has: page.getByRole('button', { name: 'Add destination' }) });
    const preview = () => page.getByRole('region', { name: /^Preview in / });
    const row = (name: string) => page.getByTestId('destination-row').filter({ hasText: name });

    // The fields by their names: their labels also hold the help and error texts.
    async function addDestination(fields: { name: string; url: string; format: string; groupWindowSeconds?: number }): Promise<Locator> {
      await form().locator('input[name=destinationName]').fill(fields.name);
      await form().locator('input[name=destinationUrl]').fill(fields.url);
      await form().getByLabel('Format', { exact: true }).selectOption(fields.format);
      if (fields.groupWindowSeconds !== undefined) await form().locator('input[name=groupWindowSeconds]').fill(String(fields.groupWindowSeconds));
      return preview();
    }

    it('previews the message, creates a Telegram and a grouped ntfy destination, tests both and shows the answers', async () => {
      await page.goto(`${base}/app/p/${projectId}/settings#destinations`);
      await page.getByRole('heading', { name: 'Outgoing webhooks' }).waitFor();
      await waitForLoaded(page);

      // Telegram: the preview shows the sample as Telegram will, every part of it as text.
      const telegramUrl = `http://127.0.0.1:${telegram.port}/bot${BOT_TOKEN}/sendMessage?chat_id=-100123`;
      const telegramPreview = await addDestination({ name: 'Ops on Telegram', url: telegramUrl, format: 'telegram' });
      await telegramPreview.getByRole('heading', { name: 'Preview in Telegram' }).waitFor();
      const one = telegramPreview.getByTestId('channel-preview-message');
      assert.equal(await one.count(), 1, 'no group window: one sample message');
      assert.equal(await one.locator('strong').first().textContent(), '🚀 Deployed v2.4 to production');
      assert.deepEqual(await one.locator('li').allTextContents(), ['region: eu-west', 'version: 2.4.0']);
      assert.equal(await one.getByRole('link', { name: 'Open in Eventlog' }).getAttribute('href'), `/app/p/${projectId}`);
      await checkPage('the form with a Telegram preview');
      await form().getByRole('button', { name: 'Add destination' }).click();
      await page.getByText('Destination “Ops on Telegram” added').waitFor();

      // ntfy with a 60 s window: the preview adds how a burst reads, the project's name escaped.
      const ntfyUrl = `http://127.0.0.1:${ntfy.port}/deploys?token=${NTFY_TOKEN}`;
      const ntfyPreview = await addDestination({ name: 'Phones via ntfy', url: ntfyUrl, format: 'ntfy', groupWindowSeconds: 60 });
      await ntfyPreview.getByRole('heading', { name: 'Preview in ntfy' }).waitFor();
      const messages = ntfyPreview.getByTestId('channel-preview-message');
      await messages.nth(1).waitFor();
      assert.equal(await messages.nth(1).locator('strong').textContent(), '3 events in Shop <Main>');
      await checkPage('the form with a grouped ntfy preview');
      fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
      await ntfyPreview.screenshot({ path: path.join(ROOT, 'test-results', `channel-preview-${size}.png`) });
      await form().getByRole('button', { name: 'Add destination' }).click();
      await page.getByText('Destination “Phones via ntfy” added').waitFor();
      const created = (await api('GET', `/api/projects/${projectId}/destinations`)).body as Array<{ name: string; groupWindowSeconds: number }>;
      assert.equal(created.find((d) => d.name === 'Phones via ntfy')?.groupWindowSeconds, 60);

      // Credentials never reach the page: each shows as ***.
      await row('Ops on Telegram').getByText(`http://127.0.0.1:${telegram.port}/bot***/sendMessage?chat_id=-100123`).waitFor();
      await row('Phones via ntfy').getByText(`http://127.0.0.1:${ntfy.port}/deploys?token=***`).waitFor();

      // Test on each: the service gets its request, the row says delivered with the HTTP status.
      for (const [name, receiver] of [
        ['Ops on Telegram', telegram],
        ['Phones via ntfy', ntfy],
      ] as const) {
        await row(name).getByRole('button', { name: 'Test' }).click();
        await row(name).getByTestId('destination-test-result').getByText('Test delivered · HTTP 200').waitFor();
        await receiver.waitFor(1);
      }
      const [sentToTelegram] = telegram.received;
      assert.equal(sentToTelegram?.url, `/bot${BOT_TOKEN}/sendMessage`);
      assert.equal(JSON.parse(sentToTelegram.body).chat_id, '-100123');
      const [sentToNtfy] = ntfy.received;
      assert.equal(sentToNtfy?.headers.authorization, `Bearer ${NTFY_TOKEN}`);
      assert.equal(JSON.parse(sentToNtfy.body).topic, 'deploys');
      await checkPage('the destinations after Test');

      // The attempt log shows each service's answer.
      for (const [name, answer] of [
        ['Ops on Telegram', TELEGRAM_ANSWER],
        ['Phones via ntfy', NTFY_ANSWER],
      ] as const) {
        await row(name).getByRole('button', { name: 'Attempt log' }).click();
        const dialog = page.getByRole('dialog', { name: `Attempt log · ${name}` });
        await dialog.getByText('Test delivery').waitFor();
        await dialog.locator('code.answer').getByText(answer).waitFor();
        assert.equal(await dialog.locator('table.attempts tbody tr td').nth(2).textContent(), '200');
        await checkPage(`the attempt log of ${name}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }

      const text = (await page.locator('body').innerText()) + (await page.content());
      for (const secret of [BOT_TOKEN, NTFY_TOKEN]) assert.ok(!text.includes(secret), `${secret} is not on the page`);
      assert.ok(text.includes('***'));
    });
  });
}

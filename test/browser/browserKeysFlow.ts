// Browser keys end to end, run at desktop width and phone width
// (both in browserKeys.test.ts): an owner creates an ingest key for one project and one origin on the
// API keys page, the dialog's fetch snippet is pasted into a page served on that origin (another
// loopback port) and its event appears in the feed; the same page on an origin the key does not
// list is refused by the browser (the server answers 403 without CORS headers).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { before } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { assertNoAxeViolations } from './pageChecks.ts';
import { openSignedIn } from './signedInBrowser.ts';
import { ROOT, ensureDashboardBuilt } from './support.ts';

const RESULTS = path.join(ROOT, 'test-results');

/** A web page of someone's site on 127.0.0.1:<port>: it runs `script` and writes the outcome. */
interface SitePage {
  origin: string;
  serve(script: string): void;
  close(): Promise<void>;
}

async function startSite(): Promise<SitePage> {
  let script = '';
  const server = http.createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>A shop</title></head><body><main><h1>A shop</h1>
<p id="outcome">sending…</p></main>
<script type="module">
const outcome = document.getElementById('outcome');
try {
${script}
  outcome.textContent = 'sent';
} catch (error) {
  outcome.textContent = 'refused: ' + error.message;
}
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    serve: (next) => (script = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Listens on `port` for the file's tests. */
export function useListening(t: TestApp, port: number): void {
  before(async () => {
    ensureDashboardBuilt();
    await t.app.listen({ port, host: '127.0.0.1' });
  });
}

/** The key's Revoke button lies inside the viewport, and the table does not scroll sideways. */
async function assertTableFits(page: Page): Promise<void> {
  const wrap = page.locator('.table-wrap').first();
  const { scrollWidth, clientWidth } = await wrap.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
  assert.ok(scrollWidth <= clientWidth + 1, `the keys table scrolls sideways: ${scrollWidth} > ${clientWidth}`);
  const revoke = await page
    .getByTestId('key-row')
    .first()
    .getByRole('button', { name: /^Revoke/ })
    .boundingBox();
  const viewport = page.viewportSize()!;
  assert.ok(revoke && revoke.x >= 0 && revoke.x + revoke.width <= viewport.width, `Revoke is off screen: ${JSON.stringify(revoke)}`);
}

export async function browserKeyFlow(t: TestApp, base: string, label: string, viewport: { width: number; height: number }): Promise<void> {
  let shop = '';
  let oldSite = '';
  const [allowed, other] = [await startSite(), await startSite()];
  // An organization per size: the flow deletes one of its projects and reads its events.
  const browser = await openSignedIn(t, {
    organization: `Browser Keys Org ${label}`,
    viewport,
    beforeSignIn: async (page) => {
      await page.goto(`${base}/app/`);
      await page.getByLabel('Email').waitFor();
      await assertNoAxeViolations(page, 'the sign-in page');
    },
    seed: async (api) => {
      const project = async (name: string) => {
        const created = await api('POST', '/api/projects', { name });
        assert.equal(created.status, 201);
        return created.body.id as string;
      };
      shop = await project('Shop');
      await project('Blog');
      oldSite = await project('Old site');
    },
  });
  const { api } = browser;
  try {
    const { page } = browser;
    await page.goto(`${base}/app/api`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByTestId('key-row').first().waitFor();
    await assertNoAxeViolations(page, 'the API keys page');

    const form = page.getByRole('form', { name: 'Create an API key' });
    await form.getByLabel('Name (optional)').fill('Shop front');
    await form.getByRole('radio', { name: /^Ingest/ }).check();
    await form.getByRole('radio', { name: /^Only the projects chosen/ }).check();
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    // An origin with a path is refused before anything is sent, in the server's words.
    await form.getByLabel(/Browser origins/).fill(`${allowed.origin}/checkout`);
    await form.getByRole('button', { name: 'Create API key' }).click();
    await form.getByTestId('origins-error').getByText('is not a browser origin').waitFor();
    await assertNoAxeViolations(page, 'the key form with an origin refused');
    await form.getByLabel(/Browser origins/).fill(`${allowed.origin}\n`);
    // A project deleted since the page loaded: the server refuses, and its words are shown.
    await form.getByRole('checkbox', { name: 'Old site' }).check();
    assert.equal((await api('POST', `/api/projects/${oldSite}/delete`, {})).status, 200);
    await form.getByRole('button', { name: 'Create API key' }).click();
    await form.getByTestId('key-refused').getByText('Project not found').waitFor();
    await assertNoAxeViolations(page, 'the key form refused by the server');
    await form.getByRole('checkbox', { name: 'Old site' }).uncheck();
    await form.getByRole('button', { name: 'Create API key' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    const key = await dialog.getByTestId('new-key').inputValue();
    assert.match(key, /^ev_/);
    const snippet = (await dialog.getByTestId('snippet-fetch').textContent()) ?? '';
    assert.ok(snippet.includes(`fetch('${base}/api/events'`), snippet);
    assert.ok(snippet.includes(`project: '${shop}'`), snippet);
    assert.ok(!snippet.includes(key), 'the key shows as dots');
    const client = (await dialog.getByTestId('snippet-client').textContent()) ?? '';
    assert.ok(client.includes(`baseUrl: '${base}'`) && client.includes('log.track('), client);
    await assertNoAxeViolations(page, 'the new key dialog with its snippets');
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, `browser-key-dialog-${label}.png`) });
    await dialog.getByRole('button', { name: 'I have saved it' }).click();

    const row = page.getByTestId('key-row').filter({ hasText: 'Shop front' });
    assert.equal(await row.getByTestId('key-access').textContent(), 'Ingest');
    assert.equal(await row.getByTestId('key-projects').textContent(), 'Shop');
    assert.equal(await row.getByTestId('key-origins').textContent(), allowed.origin);
    await assertTableFits(page);
    await page.screenshot({ path: path.join(RESULTS, `api-keys-${label}.png`), fullPage: true });

    // The snippet as it would be pasted, the key in place of the dots.
    const pasted = snippet.replace(/•+/, key);
    allowed.serve(pasted);
    other.serve(pasted);
    await page.goto(`${allowed.origin}/`);
    await page.locator('#outcome').getByText('sent').waitFor();
    await assertNoAxeViolations(page, "the shop's page");
    await page.goto(`${other.origin}/`);
    await page
      .locator('#outcome')
      .getByText(/^refused/)
      .waitFor();
    const refused = await fetch(`${base}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: other.origin },
      body: JSON.stringify({ project: shop, category: 'web', title: 'Signed up' }),
    });
    assert.equal(refused.status, 403);

    const events = (await api('GET', `/api/events?project=${shop}`)).body;
    assert.deepEqual(
      events.events.map((event: { title: string }) => event.title),
      ['Signed up'],
      'one event, from the allowed origin',
    );
    await page.goto(`${base}/app/p/${shop}`);
    await page.getByText('Signed up').first().waitFor();
    await assertNoAxeViolations(page, 'the feed with the event');
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
    await allowed.close();
    await other.close();
  }
}

// The Audit log page's browser flow, run at desktop width and phone width
// (both in auditLog.test.ts): an owner invites a person and removes them on the Members page, then
// reads both in the Audit log (actor, action, target, IP), filters by action and by actor, and
// loads an older page. Every page visited passes axe-core.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers.ts';
import { assertNoAxeViolations, waitForLoaded } from './pageChecks.ts';
import { openSignedIn } from './signedInBrowser.ts';
import { ROOT, ensureDashboardBuilt } from './support.ts';

const RESULTS = path.join(ROOT, 'test-results');

/** More entries than one page (50) holds, so "Load more" has something to load. */
const OLDER_ENTRIES = 52;

/** Listens on `port` for the file's tests. */
export function useListening(t: TestApp, port: number): void {
  before(async () => {
    ensureDashboardBuilt();
    await t.app.listen({ port, host: '127.0.0.1' });
  });
}

/** Follows an organization link of the top bar, which a phone folds into the Menu. */
async function openFromTopBar(page: Page, name: string, phone: boolean): Promise<void> {
  if (phone) await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await waitForLoaded(page);
}

export async function auditFlow(t: TestApp, base: string, label: string, viewport: { width: number; height: number }): Promise<void> {
  const phone = viewport.width < 600;
  const memberEmail = `member-${label}-${Date.now()}@example.com`;
  // An organization per size: the flow invites and removes a member, and reads that in the log.
  const browser = await openSignedIn(t, {
    organization: `Audit Org ${label}`,
    viewport,
    seed: async (api) => {
      for (let index = 0; index < OLDER_ENTRIES; index++) assert.equal((await api('POST', '/api/projects', { name: `Older ${index}` })).status, 201);
    },
  });
  const ownerEmail = browser.email;
  try {
    const { page } = browser;

    await openFromTopBar(page, 'Members', phone);
    await page.locator('input[name=email]').fill(memberEmail);
    await page.getByRole('button', { name: 'Invite' }).click();
    const invitationUrl = await page.getByTestId('invitation-url').inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    const accepted = await fetch(`${base}/api/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: invitationUrl.split('/').pop(), password: 'a member password' }),
    });
    assert.equal(accepted.status, 200);
    await page.reload();
    const memberRow = page.getByTestId('member-row').filter({ hasText: memberEmail });
    await memberRow.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await memberRow.waitFor({ state: 'detached' });
    await assertNoAxeViolations(page, 'the Members page');

    await openFromTopBar(page, 'Audit log', phone);
    await assertNoAxeViolations(page, 'the Audit log');
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, `audit-log-${label}.png`) });
    const rows = page.getByTestId('audit-row');
    const removed = rows.filter({ hasText: 'Member removed' });
    const invited = rows.filter({ hasText: 'Member invited' });
    // Target and address have columns of their own on a desktop, and sit under actor and action on a phone.
    // Point 8: a removed member reads by their email, not an id; an invitation has no name to show.
    const removedTarget = new RegExp(`\\bmember ${memberEmail.replace(/[.]/g, '\\.')} \\(no longer here\\)`);
    for (const [row, target] of [
      [removed, removedTarget],
      [invited, /\binvitation [A-Za-z0-9]+\b/],
    ] as const) {
      assert.equal(await row.getByTestId('audit-actor').textContent(), ownerEmail);
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      assert.match(text, /\bdashboard user\b.*\b127\.0\.0\.1\b/);
      assert.match(text, target);
    }
    const wrap = page.locator('.table-wrap');
    assert.ok(await wrap.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), 'the table fits the width');
    await rows.filter({ hasText: 'Member joined' }).getByTestId('audit-actor').getByText(memberEmail).waitFor();

    // By action: the server's filter, from the first page again.
    await page.getByLabel('Action').selectOption('member.remove');
    // While the filtered page loads there are no rows at all: wait for rows, all of that action.
    await page.waitForFunction(() => {
      const shown = [...document.querySelectorAll('[data-testid=audit-row]')];
      return shown.length > 0 && shown.every((row) => row.getAttribute('data-action') === 'member.remove');
    });
    assert.equal(await rows.count(), 1);
    await assertNoAxeViolations(page, 'the Audit log filtered by action');

    // By actor: over the loaded entries, by label.
    await page.getByLabel('Action').selectOption('');
    await rows.nth(49).waitFor();
    assert.equal(await rows.count(), 50, 'one page');
    await page.getByLabel('Actor').fill(memberEmail.slice(0, 14).toUpperCase());
    await page.getByRole('status').filter({ hasText: 'loaded entries match' }).waitFor();
    assert.deepEqual(new Set(await page.getByTestId('audit-actor').allTextContents()), new Set([memberEmail]));
    await page.getByLabel('Actor').fill('nobody by this name');
    await page.getByText('No entries match these filters.').waitFor();
    await assertNoAxeViolations(page, 'the Audit log with no entry matching');
    await page.getByLabel('Actor').fill('');

    await page.getByRole('button', { name: 'Load more' }).click();
    await rows.nth(50).waitFor();
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    assert.ok((await rows.count()) >= OLDER_ENTRIES + 4, 'every entry, the oldest project too');
    await rows.filter({ hasText: 'Project created' }).last().waitFor();
    // Point 8: a project that still exists is named and linked.
    const projectTarget = rows.filter({ hasText: 'Project created' }).first().getByRole('link').first();
    assert.match((await projectTarget.getAttribute('href')) ?? '', /\/app\/p\/[A-Za-z0-9_-]+$/);
    await assertNoAxeViolations(page, 'the Audit log after Load more');
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
}

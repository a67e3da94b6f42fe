// Checks every browser test can run on the page it is on: axe-core's rules (zero violations at
// any impact) and the Content-Security-Policy violations the page reported.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './support.ts';

const AXE_SOURCE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
}

/**
 * axe-core's violations on the page as it is now, one line each. The source is evaluated, not
 * added as a script tag: the dashboard's CSP refuses inline scripts, and evaluation is not one.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate<AxeResult>(`window.axe.run(document, { resultTypes: ['violations'] })`);
  return result.violations.flatMap((violation) =>
    violation.nodes.slice(0, 4).map((node) => `${violation.impact ?? '?'} ${violation.id} (${violation.help}): ${JSON.stringify(node.target)}`),
  );
}

/** Collects the CSP violations Chromium reports on the console, across navigations. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text().slice(0, 300)}`);
  });
  return violations;
}

/**
 * Until nothing on the page is loading: no loading placeholder, nothing aria-busy. A list still
 * loading is faded, and axe would read its faded colours.
 */
export async function waitForLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[data-testid=skeleton], [aria-busy=true]'));
}

/** Fails the test with every axe-core violation on the page as it is now, naming where it was. */
export async function assertNoAxeViolations(page: Page, where: string): Promise<void> {
  const found = await axeViolations(page);
  if (found.length) throw new Error(`${found.length} axe violations on ${where}:\n${found.join('\n')}`);
}

/** No axe-core violation on the page in the light theme nor in the dark one (with reduced motion). */
export async function assertNoAxeViolationsInBothThemes(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await assertNoAxeViolations(page, `${where}, ${colorScheme}`);
  }
}

// Draws the dashboard's app icons (web/public/icons/*.png) from web/public/favicon.svg with the
// local chromium, so installing the dashboard as an app needs no image tools and no network.
// Run it again after changing the favicon: node scripts/make-icons.js
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const favicon = fs.readFileSync(path.join(ROOT, 'web/public/favicon.svg'), 'utf8');
const outDir = path.join(ROOT, 'web/public/icons');
const BRAND = '#5b5bd6';

// A maskable icon is cropped to a circle or squircle by the launcher: full-bleed colour, and
// the mark inside the middle 60% (the safe zone is the inner circle of 80%).
const maskable = (size) => `<div style="width:${size}px;height:${size}px;background:${BRAND};display:grid;place-items:center">
  <div style="width:${size * 0.6}px;height:${size * 0.6}px">${favicon.replace('<svg ', '<svg width="100%" height="100%" ')}</div></div>`;
const plain = (size) => `<div style="width:${size}px;height:${size}px">${favicon.replace('<svg ', '<svg width="100%" height="100%" ')}</div>`;

const icons = [
  ['icon-192.png', 192, plain],
  ['icon-512.png', 512, plain],
  ['maskable-512.png', 512, maskable],
  ['apple-touch-icon.png', 180, maskable],
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, size, draw] of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<body style="margin:0;background:transparent">${draw(size)}</body>`);
    await page.locator('body > div').screenshot({ path: path.join(outDir, name), omitBackground: true });
    console.log(`wrote web/public/icons/${name}`);
  }
} finally {
  await browser.close();
}

#!/usr/bin/env node
// Builds the dashboard (web/) into web/dist, which the server serves under /app/.
//   node scripts/build-web.js              build; exit 1 when the build fails (`npm run build`)
//   node scripts/build-web.js --if-missing build only when web/dist is absent, and never fail:
//                                          postinstall must not break an install that lacks dev tools
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'web');
const distIndex = path.join(webDir, 'dist', 'index.html');
const ifMissing = process.argv.includes('--if-missing');

if (ifMissing && fs.existsSync(distIndex)) process.exit(0);

try {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    throw new Error('vite is not installed (install dev dependencies, then run `npm run build`)');
  }
  await vite.build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    logLevel: process.env.VITE_LOG_LEVEL ?? (ifMissing ? 'warn' : 'info'),
  });
  if (!fs.existsSync(distIndex)) throw new Error('the build finished without web/dist/index.html');
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  if (ifMissing) {
    console.warn(`warning: the dashboard was not built: ${message}`);
    process.exit(0);
  }
  console.error(`dashboard build failed: ${message}`);
  process.exit(1);
}

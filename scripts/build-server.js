#!/usr/bin/env node
// Compiles src/ into dist/ with tsc, for `npm start`: the server then runs plain JavaScript,
// without tsx's loader thread (about 40 MB of memory; see docs/decisions/034-compiled-server.md).
//   node scripts/build-server.js             compile; exit 1 when it fails
//   node scripts/build-server.js --if-stale  compile only when dist/ does not match src/, and
//                                            never fail: bin/eventlog.js then runs src/ with tsx
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { distDir, distIsCurrent, fingerprintFile, root, sourceFingerprint } from './serverBuild.js';

const ifStale = process.argv.includes('--if-stale');
if (ifStale && distIsCurrent()) process.exit(0);

function fail(message) {
  if (ifStale) {
    console.warn(`warning: the server was not compiled (${message}); it runs from src/ through tsx`);
    process.exit(0);
  }
  console.error(`server build failed: ${message}`);
  process.exit(1);
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  fail('typescript is not installed');
}
const fingerprint = sourceFingerprint();
fs.rmSync(distDir, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.server.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  fs.rmSync(distDir, { recursive: true, force: true });
  fail(`tsc exited with ${result.status ?? result.signal}`);
}
fs.writeFileSync(fingerprintFile, `${fingerprint}\n`);

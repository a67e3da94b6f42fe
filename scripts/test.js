#!/usr/bin/env node
// `npm test`: every *.test.ts under src/ and test/, run by node's test runner against a real
// PostgreSQL. Pass 1 always uses a throwaway embedded cluster; pass 2 runs the same files
// against DATABASE_URL when it is set. Extra arguments are test files to run instead of all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { startEmbeddedCluster } = await import('../src/db/embedded.ts');

const root = path.resolve(import.meta.dirname, '..');
const requested = process.argv.slice(2);
const files = requested.length ? requested : findTests(['src', 'test']);

function findTests(dirs) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts')) found.push(path.relative(root, full));
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return found.sort();
}

function runPass(store, databaseUrl) {
  console.log(`\n# store: ${store} (${files.length} test files)`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: databaseUrl, EVENTLOG_TEST_STORE: store, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
  );
  return result.status ?? 1;
}

const external = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-test-'));
const cluster = await startEmbeddedCluster(dataDir);
let status;
try {
  status = runPass('embedded', cluster.url);
} finally {
  await cluster.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (external) status = runPass('external', external) || status;
else console.log('\n# DATABASE_URL is not set: the external-store pass was skipped');
process.exit(status);

#!/usr/bin/env node
// `npm test`: every *.test.ts under src/ and test/, run by node's test runner against a real
// PostgreSQL. Pass 1 always uses a throwaway embedded cluster; pass 2 runs the same files
// against DATABASE_URL when it is set. Extra arguments are test files to run instead of all.
// The spec reporter prints to the terminal; a TAP copy of each pass feeds the closing summary.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { startEmbeddedCluster } = await import('../src/db/embedded.ts');

const root = path.resolve(import.meta.dirname, '..');
const requested = process.argv.slice(2);
const files = requested.length ? requested : findTests(['src', 'test']);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-test-'));
// As root, PostgreSQL runs as the `postgres` system user, which must pass through to data/.
fs.chmodSync(workDir, 0o711);

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

let running;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // Stop the tests, then fall through to the cleanup below, so no PostgreSQL is left behind.
    stopping = true;
    running?.kill(signal);
  });
}

/** Runs the test files on one store; resolves with the exit status and the TAP totals. */
function runPass(store, databaseUrl) {
  console.log(`\n# store: ${store} (${files.length} test files)\n`);
  const tapFile = path.join(workDir, `${store}.tap`);
  const started = Date.now();
  return new Promise((resolve) => {
    running = spawn(
      process.execPath,
      [
        '--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000',
        '--test-reporter=spec', '--test-reporter-destination=stdout',
        '--test-reporter=tap', `--test-reporter-destination=${tapFile}`,
        ...files,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, DATABASE_URL: databaseUrl, EVENTLOG_TEST_STORE: store, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
      },
    );
    running.on('close', (code, signal) => {
      running = undefined;
      resolve({ store, status: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000), ...totals(tapFile) });
    });
  });
}

/** The `# tests N`, `# pass N`, ... lines that close a TAP stream. */
function totals(tapFile) {
  const counts = {};
  let text;
  try {
    text = fs.readFileSync(tapFile, 'utf8');
  } catch {
    return counts;
  }
  for (const match of text.matchAll(/^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[match[1]] = Number(match[2]);
  return counts;
}

function describe(pass) {
  if (pass.tests === undefined) return `no result (exit status ${pass.status})`;
  const parts = [`${pass.tests} tests`, `${pass.pass} passed`, `${pass.fail} failed`];
  if (pass.cancelled) parts.push(`${pass.cancelled} cancelled`);
  if (pass.skipped) parts.push(`${pass.skipped} skipped`);
  if (pass.todo) parts.push(`${pass.todo} todo`);
  return `${parts.join(', ')} in ${pass.seconds} s${pass.status ? ` (exit status ${pass.status})` : ''}`;
}

const passes = [];
const external = process.env.DATABASE_URL;
try {
  const cluster = await startEmbeddedCluster(path.join(workDir, 'data'));
  try {
    passes.push(await runPass('embedded', cluster.url));
  } finally {
    await cluster.stop();
  }
  if (external && !stopping) passes.push(await runPass('external', external));
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}

console.log('\n# summary');
for (const pass of passes) console.log(`#   ${pass.store.padEnd(8)} ${describe(pass)}`);
if (!external) console.log('#   external skipped: DATABASE_URL is not set');
const failed = stopping || passes.some((pass) => pass.status !== 0);
console.log(`# result: ${failed ? 'FAILED' : 'passed'}`);
process.exit(failed ? 1 : 0);

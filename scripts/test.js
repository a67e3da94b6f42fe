#!/usr/bin/env node
// `npm test`: every *.test.ts under src/ and test/, run by node's test runner against a real
// PostgreSQL. Pass 1 always uses a throwaway embedded cluster; pass 2 runs the same files
// against DATABASE_URL when it is set; pass 3 on Citus (a coordinator and a worker), when Citus
// is installed in the machine's PostgreSQL 15 (../shared/citus/install.sh) or CITUS_URL names a
// coordinator's database. The container lane runs test/container/ (and only those files) against
// the image built from the sources, where podman and the base images are present
// (scripts/containerLane.js). Extra arguments are test files to run instead of all, and
// `--store NAME` (repeatable) runs only those stores or lanes. The pass with the browser files
// starts one Chromium for them all (decision 226); each pass has a migrated template for the files
// with a database of their own, and store-independent files run in the first pass only (decision
// 230); TypeScript runs through scripts/typescript.js (decision 229); a pass's files share a few
// long-lived processes that take them from one queue (scripts/testWorker.js, decision 231). The
// spec reporter prints to the terminal; a TAP copy of each pass feeds the closing summary.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'node:module';
import { containerLaneSource, prepareContainerLane } from './containerLane.js';

register('./typescriptHooks.js', import.meta.url);
const { startEmbeddedCluster } = await import('../src/db/embedded.ts');
const { createClient } = await import('../src/db/client.ts');
const { migrate } = await import('../src/db/migrate.ts');
const { CHROMIUM, CHROMIUM_LAUNCH } = await import('../test/browser/support.ts');
const { createMigratedTemplate } = await import('../test/ownDatabase.ts');

const root = path.resolve(import.meta.dirname, '..');
const STORES = ['embedded', 'external', 'citus', 'container'];
const { files: requested, stores: onlyStores } = parseArguments(process.argv.slice(2));
const files = requested.length ? requested : findTests(['src', 'test']);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-test-'));
// As root, PostgreSQL runs as the `postgres` system user, which must pass through to data/.
fs.chmodSync(workDir, 0o711);

function parseArguments(args) {
  const files = [];
  const stores = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--store') {
      const store = args[++i];
      if (!STORES.includes(store)) {
        console.error(`npm test: --store takes one of ${STORES.join(', ')}`);
        process.exit(2);
      }
      stores.push(store);
    } else files.push(args[i]);
  }
  return { files, stores: stores.length ? stores : STORES };
}

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
    if (!running) void stopChromium();
  });
}

/**
 * The browser tests drive the dashboard, whose statements the other files already run on every
 * store: they run on one store only, the embedded one when it is in the run (they are over half
 * of a pass's time; on every store the run would pass 45 minutes). Decision 163.
 */
const browserStore = STORES.find((store) => store !== 'citus' && store !== 'container' && onlyStores.includes(store));
const isBrowserTest = (file) => file.startsWith(`test${path.sep}browser${path.sep}`);
/** test/container/ runs in the container lane alone: it drives images, not a store (decision 181). */
const isContainerTest = (file) => path.normalize(file).startsWith(`test${path.sep}container${path.sep}`);
/**
 * A file whose first comment says "npm test runs this file in one pass only" does not depend on the
 * store (the dashboard's helpers, the code checks, the embedded store's own processes): it runs in
 * the run's first pass, not once per store (decision 230).
 */
const ONE_PASS_MARK = /^\/\/ npm test runs this file in one pass only\b/m;
const onePassStore = STORES.find((store) => store !== 'container' && onlyStores.includes(store));
const onePassFiles = new Set(files.filter((file) => ONE_PASS_MARK.test(fs.readFileSync(path.join(root, file), 'utf8').slice(0, 4096))));
const isOnePassTest = (file) => onePassFiles.has(file);
const filesFor = (store) => {
  if (store === 'container') return files.filter(isContainerTest);
  const storeFiles = files.filter((file) => !isContainerTest(file) && (store === onePassStore || !isOnePassTest(file)));
  return store === browserStore ? storeFiles : storeFiles.filter((file) => !isBrowserTest(file));
};

/**
 * Test files run side by side, one more than the machine has cores: part of a file's time is
 * waiting on PostgreSQL, a child process or a browser, and on 2 cores a third process kept them
 * 92% busy instead of 76%, the external PostgreSQL's pass 10% shorter (decision 231).
 * TEST_CONCURRENCY overrides it.
 */
const concurrency = Number(process.env.TEST_CONCURRENCY) || os.availableParallelism() + 1;

let chromiumServer;

/**
 * One Chromium for a pass's browser files (decision 226): each test process connects to it and
 * opens contexts of its own, instead of starting a browser per test. None without Debian's chromium
 * (the browser files then skip).
 */
async function startChromium(passFiles) {
  if (!passFiles.some(isBrowserTest) || !fs.existsSync(CHROMIUM)) return {};
  const { chromium } = await import('playwright-core');
  chromiumServer = await chromium.launchServer(CHROMIUM_LAUNCH);
  return { EVENTLOG_CHROMIUM_WS: chromiumServer.wsEndpoint() };
}

async function stopChromium() {
  const server = chromiumServer;
  chromiumServer = undefined;
  await server?.close().catch(() => {});
}

/** Runs the test files on one store; resolves with the exit status and the TAP totals. */
async function runPass(store, databaseUrl, extraEnv = {}) {
  const passFiles = filesFor(store);
  const template = databaseUrl ? await createMigratedTemplate(databaseUrl, migrateDatabase) : undefined;
  try {
    const templateEnv = template ? { EVENTLOG_TEST_TEMPLATE: template.name } : {};
    return await runFiles(store, passFiles, databaseUrl, { ...extraEnv, ...templateEnv, ...(await startChromium(passFiles)) });
  } finally {
    await stopChromium();
    await template?.drop();
  }
}

async function migrateDatabase(url) {
  const sql = createClient(url, { max: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function runFiles(store, passFiles, databaseUrl, extraEnv) {
  const left = store === 'container' ? 0 : files.filter(isBrowserTest).length - passFiles.filter(isBrowserTest).length;
  const where = browserStore ? `on the ${browserStore} store` : 'on the embedded or external store only';
  const onePass =
    store === 'container' || store === onePassStore ? 0 : files.filter((file) => !isContainerTest(file) && !isBrowserTest(file) && isOnePassTest(file)).length;
  const notes = [
    left ? `the ${left} browser test files run ${where}` : '',
    onePass ? `${onePass} store-independent file${onePass === 1 ? '' : 's'} ran on the ${onePassStore} store` : '',
  ].filter(Boolean);
  console.log(`\n# store: ${store} (${[`${passFiles.length} test files`, ...notes].join('; ')})\n`);
  const tapFile = path.join(workDir, `${store}.tap`);
  const timesFile = path.join(workDir, `${store}.times`);
  // The timeout bounds each file as a whole: the browser files take about 60 s on a quiet machine
  // and over 120 s on a loaded one, and one that runs a page at desktop and phone size twice that,
  // so it leaves them room; a hung test still ends. A container test waits on image and volume
  // copies, minutes on a loaded machine.
  const fileTimeoutMs = store === 'container' ? 900_000 : passFiles.some(isBrowserTest) ? 600_000 : 300_000;
  const { queue, processes } = queueFiles(store, passFiles, fileTimeoutMs);
  const started = Date.now();
  return new Promise((resolve) => {
    running = spawn(
      process.execPath,
      [
        // Test locations (as well as stacks, which scripts/typescript.js maps itself) name the
        // TypeScript's lines, not those of the JavaScript esbuild made of it.
        '--enable-source-maps',
        '--import',
        path.join(root, 'scripts', 'typescript.js'),
        '--test',
        `--test-concurrency=${processes.length}`,
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(root, 'scripts', 'tapWithFileTimes.js')}`,
        `--test-reporter-destination=${tapFile}`,
        ...processes,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          EVENTLOG_TEST_STORE: store,
          EVENTLOG_TEST_FIRST_PASS: store === onePassStore ? 'yes' : 'no',
          EVENTLOG_TEST_TIMES: timesFile,
          EVENTLOG_TEST_QUEUE: queue,
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
          ...extraEnv,
        },
      },
    );
    running.on('close', (code, signal) => {
      running = undefined;
      const seconds = fileSeconds(timesFile);
      rememberFileTimes(seconds);
      resolve({
        store,
        status: code ?? (signal ? 1 : 0),
        seconds: Math.round((Date.now() - started) / 1000),
        ...totals(tapFile),
        failures: failures(tapFile),
        slowest: [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 8),
      });
    });
  });
}

/**
 * A pass's test processes and the queue they share (scripts/testWorker.js, decision 231): as many
 * processes as the run's concurrency, each taking the next file until none is left. The files are
 * queued slowest first, as the last run on this machine timed them (else browser files first, then
 * the larger files), so that no long file starts last and runs alone.
 */
function queueFiles(store, passFiles, fileTimeoutMs) {
  const known = lastFileTimes();
  const expected = (file) => known[file] ?? (isBrowserTest(file) ? 60 : 0) + fs.statSync(path.join(root, file)).size / 1000;
  const files = [...passFiles].sort((a, b) => expected(b) - expected(a)).map((file) => path.join(root, file));
  const claims = path.join(workDir, `${store}.claims`);
  fs.mkdirSync(claims);
  const queue = path.join(workDir, `${store}.queue.json`);
  fs.writeFileSync(queue, JSON.stringify({ root, files, claims, fileTimeoutMs }));
  const worker = pathToFileURL(path.join(root, 'scripts', 'testWorker.js')).href;
  const count = Math.min(concurrency, files.length);
  const processes = Array.from({ length: count }, (_, i) => {
    const entry = path.join(workDir, `${store}-tests-${i + 1}.js`);
    fs.writeFileSync(entry, `import { runQueuedFiles } from ${JSON.stringify(worker)};\nawait runQueuedFiles();\n`);
    return entry;
  });
  return { queue, processes };
}

/** Seconds per test file from earlier runs on this machine, kept outside the repository. */
const FILE_TIMES = path.join(os.tmpdir(), `eventlog-test-file-times-${process.getuid?.() ?? 'user'}.json`);

function lastFileTimes() {
  try {
    return JSON.parse(fs.readFileSync(FILE_TIMES, 'utf8'));
  } catch {
    return {};
  }
}

/** Keeps a pass's seconds per file (fileSeconds) for the next run's queue. */
function rememberFileTimes(seconds) {
  const times = lastFileTimes();
  for (const [file, spent] of seconds) times[file] = Math.round(spent * 10) / 10;
  fs.writeFileSync(FILE_TIMES, JSON.stringify(times));
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

/**
 * Each failed test of a TAP stream (not the suites that failed because of it): its name, where it
 * is, the first lines of its error and the first stack frame in the repository. The summary repeats
 * them so that the end of a long run's output says why it failed.
 */
function failures(tapFile) {
  let lines;
  try {
    lines = fs.readFileSync(tapFile, 'utf8').split('\n');
  } catch {
    return [];
  }
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!heading) continue;
    const indent = heading[1].length + 2;
    const block = [];
    for (let j = i + 2; j < lines.length && !/^\s*\.\.\.$/.test(lines[j]); j++) block.push(lines[j].slice(indent));
    const field = (name) => block.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
    if (field('failureType') === "'subtestsFailed'") continue;
    const errorAt = block.findIndex((line) => line.startsWith('error: '));
    let error = errorAt < 0 ? [] : [block[errorAt].slice(7)];
    if (error[0] === '|-') {
      error = [];
      for (const line of block.slice(errorAt + 1)) {
        if (line && !line.startsWith('  ')) break;
        error.push(line.slice(2));
      }
    }
    const stackAt = block.findIndex((line) => line.startsWith('stack: '));
    const frame =
      stackAt < 0
        ? undefined
        : block
            .slice(stackAt + 1)
            .map((line) => line.trim())
            .find((line) => line.includes(root) && !line.includes('node_modules'));
    found.push({ name: heading[2], location: field('location').replace(/^'|'$/g, ''), error: error.filter((line) => line.trim()).slice(0, 8), frame });
  }
  return found;
}

/** Each test file of a pass and its seconds (its suite, hooks included), from the lines tapWithFileTimes.js wrote. */
function fileSeconds(timesFile) {
  const seconds = new Map();
  let lines;
  try {
    lines = fs.readFileSync(timesFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    return seconds;
  }
  for (const line of lines) {
    const { file, seconds: spent } = JSON.parse(line);
    seconds.set(file, (seconds.get(file) ?? 0) + spent);
  }
  return seconds;
}

function describe(pass) {
  if (pass.tests === undefined) return `no result (exit status ${pass.status})`;
  const parts = [`${pass.tests} tests`, `${pass.pass} passed`, `${pass.fail} failed`];
  if (pass.cancelled) parts.push(`${pass.cancelled} cancelled`);
  if (pass.skipped) parts.push(`${pass.skipped} skipped`);
  if (pass.todo) parts.push(`${pass.todo} todo`);
  return `${parts.join(', ')} in ${pass.seconds} s${pass.status ? ` (exit status ${pass.status})` : ''}`;
}

/** Where Citus comes from on this machine: a given CITUS_URL, the shared cluster script, or none. */
const CITUS_SCRIPTS = path.resolve(root, '../shared/citus');
const CITUS_LIBRARY = '/usr/lib/postgresql/15/lib/citus.so';
/** Fewer shards than Citus's 32 make each scratch database quicker to distribute; routing is the same. */
const TEST_SHARD_COUNT = 8;

function citusSource() {
  if (process.env.CITUS_URL) return { kind: 'given', url: process.env.CITUS_URL };
  if (fs.existsSync(path.join(CITUS_SCRIPTS, 'cluster.sh')) && fs.existsSync(CITUS_LIBRARY)) return { kind: 'cluster' };
  return { kind: 'none', why: `Citus is not installed (run ${path.relative(root, CITUS_SCRIPTS)}/install.sh, or set CITUS_URL)` };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway coordinator + worker in the work folder; resolves with its test database's URL. */
async function startCitusCluster() {
  const dir = path.join(workDir, 'citus');
  // Through bash: a copy of the scripts may have lost its execute bits.
  const cluster = (...args) =>
    execFileSync('bash', [path.join(CITUS_SCRIPTS, 'cluster.sh'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const coordinatorPort = await freePort();
  let workerPort = await freePort();
  while (workerPort === coordinatorPort) workerPort = await freePort();
  const stop = () => cluster('stop', dir);
  try {
    cluster('start', dir, String(coordinatorPort), String(workerPort));
    const url = cluster('createdb', dir, 'eventlog_test');
    await capWorkerConnections(url);
    return { url, stop, logs: ['coordinator', 'worker'].map((node) => path.join(dir, `${node}.log`)) };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * Citus counts its connections to a worker per database, each bounded by citus.max_shared_pool_size
 * (by default the coordinator's max_connections, 300, as is the worker's). Two test files with
 * databases of their own, and the runner's, could together open more than the worker accepts, and a
 * refused first connection fails the query ("failure on connection marked as essential"). With 80
 * per database, three databases stay within the worker's 300; past the cap Citus waits instead.
 */
async function capWorkerConnections(url) {
  const admin = createClient(url, { max: 1 });
  try {
    await admin`ALTER SYSTEM SET citus.max_shared_pool_size = 80`;
    await admin`SELECT pg_reload_conf()`;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** The lines of the cluster's own logs that say why a connection or a backend failed. */
function clusterTrouble(logs) {
  const found = [];
  for (const file of logs) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n').filter((line) => /FATAL|PANIC|terminated by signal|too many|out of memory/.test(line));
    found.push(...lines.slice(-10).map((line) => `${path.basename(file, '.log')}: ${line}`));
  }
  return found;
}

/** Sets the test shard count, then creates and distributes the schema once, before any file runs. */
async function prepareCitusDatabase(url) {
  const database = new URL(url).pathname.slice(1);
  const admin = createClient(url, { max: 1 });
  try {
    await admin.unsafe(`ALTER DATABASE "${database}" SET citus.shard_count = ${TEST_SHARD_COUNT}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  // A new connection: the setting applies to sessions that start after it.
  await migrateDatabase(url);
}

/** The container lane: the images are built once for its files, and removed after them. */
async function runContainerLane() {
  if (!wanted('container') || stopping) return;
  const lane = containerLaneSource();
  if (lane.kind === 'none') {
    skipped.push(`container skipped: ${lane.why}`);
    return;
  }
  const started = Date.now();
  let prepared;
  try {
    prepared = await prepareContainerLane({ root, workDir, files: filesFor('container'), log: (line) => console.log(line) });
  } catch (error) {
    const lines = String(error instanceof Error ? error.message : error).split('\n');
    passes.push({
      store: 'container',
      status: 1,
      seconds: Math.round((Date.now() - started) / 1000),
      failures: [{ name: 'the image build', location: 'scripts/containerLane.js', error: lines.slice(-8) }],
      slowest: [],
    });
    return;
  }
  try {
    const pass = await runPass('container', undefined, prepared.env);
    // The lane's time includes its image builds.
    passes.push({ ...pass, seconds: Math.round((Date.now() - started) / 1000) });
  } finally {
    prepared.cleanUp();
  }
}

const passes = [];
const skipped = [];
const external = process.env.DATABASE_URL;
const citus = citusSource();
/** A store whose pass has no file to run is not run (a run of container tests alone starts no PostgreSQL). */
const wanted = (store) => onlyStores.includes(store) && filesFor(store).length > 0;
try {
  if (wanted('embedded')) {
    const cluster = await startEmbeddedCluster(path.join(workDir, 'data'));
    try {
      passes.push(await runPass('embedded', cluster.url));
    } finally {
      await cluster.stop();
    }
  }
  if (!wanted('external')) {
    // Not asked for: not run, and not reported as skipped either.
  } else if (!external) skipped.push('external skipped: DATABASE_URL is not set');
  else if (!stopping) passes.push(await runPass('external', external));
  if (!wanted('citus')) {
    // Not asked for.
  } else if (citus.kind === 'none') skipped.push(`citus    skipped: ${citus.why}`);
  else if (!stopping) {
    const started = citus.kind === 'cluster' ? await startCitusCluster() : { url: citus.url, stop: () => {} };
    try {
      await prepareCitusDatabase(started.url);
      const pass = await runPass('citus', started.url);
      if (pass.status !== 0) pass.trouble = clusterTrouble(started.logs ?? []);
      passes.push(pass);
    } finally {
      started.stop();
    }
  }
  await runContainerLane();
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}

console.log('\n# summary');
for (const pass of passes) console.log(`#   ${pass.store.padEnd(8)} ${describe(pass)}`);
for (const line of skipped) console.log(`#   ${line}`);
for (const pass of passes) {
  const files = pass.slowest.map(([file, seconds]) => `${file} ${Math.round(seconds)} s`).join(', ');
  if (files) console.log(`# ${pass.store} slowest files: ${files}`);
}
for (const pass of passes) {
  for (const failure of pass.failures) {
    console.log(`# ${pass.store} failed: ${failure.name}`);
    console.log(`#     at ${path.relative(root, failure.frame?.replace(/^.*\(|\)$/g, '') ?? failure.location) || failure.location}`);
    for (const line of failure.error) console.log(`#     ${line.slice(0, 200)}`);
  }
  for (const line of pass.trouble ?? []) console.log(`# ${pass.store} cluster log: ${line.slice(0, 200)}`);
}
const failed = stopping || passes.some((pass) => pass.status !== 0);
console.log(`# result: ${failed ? 'FAILED' : 'passed'}`);
process.exit(failed ? 1 : 0);

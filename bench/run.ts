/**
 * `npm run bench`: starts the real server in its own process, loads (or reuses) a data set,
 * drives the server over loopback with autocannon in another process, and prints one table.
 * Never part of the test suite or CI. Usage: `npm run bench -- --help`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { attachToRunningCluster } from '../src/db/embedded.ts';
import { METRICS_TOKEN, alertsSection } from './alerts.ts';
import { BATCH_CONNECTIONS, BATCH_SIZES, batchRow, batchVersusImport, batchVersusSingle, inEvents } from './batch.ts';
import { importDocument } from './bodies.ts';
import { type Dataset, api, createProject, cursorAt, ensureDataset, rememberDisk, removeScratch } from './dataset.ts';
import { type CpuShares, cpuPerEvent, measureCpu, medianShares } from './cpu.ts';
import { type LoadResult, type LoadSpec, ROOT, median, runLoad, summarize } from './measure.ts';
import { startCitusCluster } from './citusCluster.ts';
import { diskRow, measureDisk } from './disk.ts';
import { type BenchOptions, type Store, USAGE, parseOptions } from './options.ts';
import { preferencesSection } from './preferences.ts';
import { type Running, residentBytes, sampleResident, startCeiling, startServer } from './processes.ts';
import { type Header, type Row, formatTable, thousands } from './report.ts';
import { COMMON_TERM, FILTER_CATEGORY, RARE_TERM } from './vocabulary.ts';

const BENCH_DATA = path.join(ROOT, '.bench-data');
/** The server's own pool size (src/server.ts); the ceiling gets the same. */
const POOL_SIZE = 20;
/** Ingest targets, as ratios to the ceiling measured in the same run (issue: storage for scale). */
const API_TARGET_RATIO = 2.0;
const HOOK_TARGET_RATIO = 1.8;
/** A single run longer than this is not repeated (export of a big organization). */
const REPEAT_UNDER_SECONDS = 30;

const startedAt = Date.now();
const log = (message: string) => {
  const elapsed = ((Date.now() - startedAt) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench ${elapsed}s] ${message}\n`);
};

interface Context {
  options: BenchOptions;
  server: Running;
  sql: postgres.Sql;
  databaseUrl: string;
  externalDatabase: boolean;
  dataset: Dataset;
  /** The server's RSS before any measured load. */
  idleRss: number;
  workDir: string;
  rows: Row[];
}

/** Load against a server that must stay up: a server that ended mid-run voids the figures. */
async function load(spec: LoadSpec, ...watched: Array<Running | null | undefined>): Promise<LoadResult[]> {
  const results = await runLoad(spec);
  for (const process of watched) {
    const ended = process?.ended();
    if (ended) throw new Error(`a process under test ${ended} during the run (pid ${process!.pid}); see the logs in .bench-data`);
  }
  return results;
}

/** Fastify's answer for a route that does not exist (src/http/errorHandler.ts). */
function routeMissing(reply: { status: number; body: unknown }): boolean {
  const error = (reply.body as { error?: unknown } | null)?.error;
  return reply.status === 404 && typeof error === 'string' && /^Route \S+ \S+ not found$/.test(error);
}

const missingRow = (id: string, label: string, target?: string): Row => ({ id, label, result: 'n/a (route missing)', target });

/**
 * The median of each round's ratio to the ceiling run just before it: rounds interleave the
 * targets, so a pair shares whatever else the machine was doing at the time.
 */
function pairedRatio(runs: LoadResult[], ceilingRuns: LoadResult[]): number | undefined {
  const ratios = runs.flatMap((run, round) => (ceilingRuns[round] ? [run.rps / ceilingRuns[round].rps] : []));
  return ratios.length ? median(ratios) : undefined;
}

function problems(result: LoadResult): string {
  const bad = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
  const parts = bad.map(([code, count]) => `${count}× ${code}`);
  if (result.errors) parts.push(`${result.errors} connection errors`);
  return parts.length ? ` [${parts.join(', ')}]` : '';
}

async function ingestSection(ctx: Context): Promise<void> {
  const { options, server, dataset } = ctx;
  const ingestProject = await createProject(server.origin, dataset.scratch.key, 'Bench ingest');
  const ceilingProject = await createProject(server.origin, dataset.scratch.key, 'Bench ceiling');
  const hook = await api<{ url?: string }>(server.origin, dataset.scratch.key, 'POST', `/api/projects/${ingestProject}/hooks`, {
    name: 'Bench',
    category: 'webhooks',
  });
  const hookPath = hook.status === 201 && hook.body.url ? new URL(hook.body.url).pathname : null;
  if (!hookPath && !routeMissing(hook)) throw new Error(`creating an incoming hook answered ${hook.status}: ${JSON.stringify(hook.body)}`);

  const ceiling = options.ingestTargets.has('ceiling')
    ? await startCeiling(ctx.databaseUrl, dataset.scratch.organizationId, POOL_SIZE, path.join(ctx.workDir, 'ceiling.log'))
    : null;
  const base = {
    method: 'POST' as const,
    connections: options.ingestConnections,
    duration: options.ingestSeconds,
    ...(options.ingestRate ? { rate: options.ingestRate } : {}),
  };
  const runs = { ceiling: [] as LoadResult[], api: [] as LoadResult[], hook: [] as LoadResult[], batch100: [] as LoadResult[], batch1000: [] as LoadResult[] };
  const cpu = {
    ceiling: [] as Array<CpuShares | null>,
    api: [] as Array<CpuShares | null>,
    hook: [] as Array<CpuShares | null>,
    batch100: [] as Array<CpuShares | null>,
    batch1000: [] as Array<CpuShares | null>,
  };
  let rss = 0;
  let ceilingRss = 0;
  const measured = async (kind: keyof typeof runs, spec: LoadSpec) => {
    const sampler = sampleResident(kind === 'ceiling' ? ceiling!.pid : server.pid);
    try {
      // The warmup runs in a load process of its own, so that the CPU meter leaves it out.
      if (spec.warmup) await load({ ...spec, duration: spec.warmup, warmup: 0 }, server, ceiling);
      const meter = measureCpu({ server: server.pid, ceiling: ceiling?.pid, externalDatabase: ctx.externalDatabase });
      const result = (await load({ ...spec, warmup: 0 }, server, ceiling))[0]!;
      cpu[kind].push(meter.stop());
      return result;
    } finally {
      const max = sampler.stop() ?? 0;
      if (kind === 'ceiling') ceilingRss = Math.max(ceilingRss, max);
      else rss = Math.max(rss, max);
    }
  };
  try {
    // Rounds interleave the three so that the table growing under them weighs on each alike.
    for (let round = 0; round < options.runs; round++) {
      const warmup = round === 0 ? options.warmupSeconds : 0;
      if (ceiling) {
        log(`ingest round ${round + 1}/${options.runs}: ceiling`);
        runs.ceiling.push(
          await measured('ceiling', { ...base, origin: ceiling.origin, path: '/', warmup, bodies: { kind: 'ceiling', project: ceilingProject } }),
        );
      }
      if (options.ingestTargets.has('api')) {
        log(`ingest round ${round + 1}/${options.runs}: POST /api/events`);
        runs.api.push(
          await measured('api', {
            ...base,
            origin: server.origin,
            path: '/api/events',
            headers: { authorization: `Bearer ${dataset.scratch.key}` },
            warmup,
            bodies: { kind: 'api', project: ingestProject },
          }),
        );
      }
      if (hookPath && options.ingestTargets.has('hook')) {
        log(`ingest round ${round + 1}/${options.runs}: incoming hook`);
        runs.hook.push(await measured('hook', { ...base, origin: server.origin, path: hookPath, warmup, bodies: { kind: 'hook' } }));
      }
      if (options.ingestTargets.has('batch')) {
        for (const size of BATCH_SIZES) {
          log(`ingest round ${round + 1}/${options.runs}: POST /api/events/batch, ${size} a request`);
          runs[`batch${size}`].push(
            await measured(`batch${size}`, {
              ...base,
              connections: BATCH_CONNECTIONS,
              // The per-request rate of --ingest-rate is the single route's: a batch would be that many times the events.
              rate: undefined,
              origin: server.origin,
              path: '/api/events/batch',
              headers: { authorization: `Bearer ${dataset.scratch.key}` },
              warmup,
              bodies: { kind: 'batch', project: ingestProject, size },
            }),
          );
        }
      }
    }
  } finally {
    await ceiling?.stop();
  }

  const ceilingSummary = runs.ceiling.length ? summarize(runs.ceiling) : null;
  const versusCeiling = (ratio: number | undefined) => (ratio === undefined ? '' : ` = ${ratio.toFixed(2)}× ceiling`);
  const ingestRow = (kind: 'api' | 'hook', id: string, label: string, minimumRatio: number) => {
    const summary = summarize(runs[kind]);
    const ratio = pairedRatio(runs[kind], runs.ceiling);
    ctx.rows.push({
      id,
      label,
      result: `${thousands(summary.rps)} events/s${versusCeiling(ratio)}${problems(summary)}`,
      p50: summary.p50,
      p99: summary.p99,
      target: `≥ ${minimumRatio.toFixed(1)}× ceiling${kind === 'api' ? ', p99 ≤ 25 ms' : ''}`,
      met: ratio === undefined ? undefined : ratio >= minimumRatio && (kind === 'hook' || summary.p99 <= 25) && summary.non2xx === 0 && summary.errors === 0,
      cpu: medianShares(cpu[kind]),
      data: { ...summary, ratio, runsDetail: runs[kind] },
    });
  };
  if (runs.api.length) ingestRow('api', 'ingest.api', 'Ingest POST /api/events', API_TARGET_RATIO);
  if (!hookPath) ctx.rows.push(missingRow('ingest.hook', 'Ingest incoming hook'));
  else if (runs.hook.length) ingestRow('hook', 'ingest.hook', 'Ingest incoming hook', HOOK_TARGET_RATIO);
  if (ceilingSummary) {
    ctx.rows.push({
      id: 'ingest.ceiling',
      label: 'Ceiling: bare node:http + 1 INSERT',
      result: `${thousands(ceilingSummary.rps)} events/s${problems(ceilingSummary)}`,
      p50: ceilingSummary.p50,
      p99: ceilingSummary.p99,
      cpu: medianShares(cpu.ceiling),
      data: { ...ceilingSummary, runsDetail: runs.ceiling },
    });
  }
  // Issue targets read as ratios of the same run: CPU time per event against the ceiling's, and
  // incoming hooks against the API.
  const apiCpu = cpuPerEvent(runs.api, cpu.api);
  const hookCpu = cpuPerEvent(runs.hook, cpu.hook);
  const ceilingCpu = cpuPerEvent(runs.ceiling, cpu.ceiling);
  if (apiCpu !== undefined && ceilingCpu !== undefined) {
    ctx.rows.push({
      id: 'ingest.cpuVersusCeiling',
      label: 'CPU per event, POST /api/events',
      result: `${Math.round(apiCpu)} µs = ${(apiCpu / ceilingCpu).toFixed(2)}× the ceiling's ${Math.round(ceilingCpu)} µs`,
      target: '≤ 1.0× ceiling',
      met: apiCpu <= ceilingCpu,
      data: { apiMicros: apiCpu, ceilingMicros: ceilingCpu },
    });
  }
  if (apiCpu !== undefined && hookCpu !== undefined) {
    const rate = summarize(runs.hook).rps / summarize(runs.api).rps;
    const cost = hookCpu / apiCpu;
    ctx.rows.push({
      id: 'ingest.hookVersusApi',
      label: 'Incoming hook against the API',
      result: `${rate.toFixed(2)}× its events/s, ${cost.toFixed(2)}× its CPU per event`,
      target: 'within 10%',
      met: rate >= 0.9 && cost <= 1.1,
      data: { rateRatio: rate, cpuRatio: cost },
    });
  }
  const batchCpu = (size: 100 | 1000) =>
    cpuPerEvent(
      runs[`batch${size}`].map((run) => inEvents(run, size)),
      cpu[`batch${size}`],
    );
  const batchRows = BATCH_SIZES.filter((size) => runs[`batch${size}`].length).map((size) =>
    batchRow(size, runs[`batch${size}`], cpu[`batch${size}`], batchCpu(size)),
  );
  ctx.rows.push(...batchRows);
  const apiRow = ctx.rows.find((row) => row.id === 'ingest.api');
  const hundreds = batchRows.find((row) => row.id === 'ingest.batch100');
  if (hundreds && apiRow) ctx.rows.push(batchVersusSingle(hundreds, apiRow, batchCpu(100), apiCpu));
  if (rss > 0) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const reference = [`${mb(ctx.idleRss)} idle before`, ceilingRss ? `ceiling process ${mb(ceilingRss)}` : ''].filter(Boolean).join('; ');
    ctx.rows.push({
      id: 'ingest.rss',
      label: 'Server RSS during ingest (max)',
      result: `${mb(rss)} (${reference})`,
      target: '≤ 200 MB',
      met: rss <= 200 * 1024 * 1024,
      data: { bytes: rss, idleBytes: ctx.idleRss, ceilingBytes: ceilingRss },
    });
  }
}

interface ReadCase {
  id: string;
  label: string;
  path: string;
  /** A read asked with a body (POST /api/funnels). */
  body?: unknown;
  target?: string;
  /** Target on p50, in ms. */
  limit?: number;
  check?: (body: unknown) => string | null;
}

async function readSection(ctx: Context, cases: ReadCase[]): Promise<void> {
  const { options, server, dataset } = ctx;
  for (const read of cases) {
    const method = read.body === undefined ? 'GET' : 'POST';
    const reply = await api(server.origin, dataset.key, method, read.path, read.body);
    if (routeMissing(reply)) {
      ctx.rows.push(missingRow(read.id, read.label, read.target));
      continue;
    }
    if (reply.status !== 200) throw new Error(`${method} ${read.path} answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
    const wrong = read.check?.(reply.body);
    if (wrong) throw new Error(`${method} ${read.path}: ${wrong}`);
    log(`${read.label}: ${options.runs} × ${options.readSeconds} s`);
    const spec: LoadSpec = {
      origin: server.origin,
      method,
      path: read.path,
      headers: { authorization: `Bearer ${dataset.key}` },
      ...(read.body === undefined ? {} : { bodies: { kind: 'fixed' as const, body: JSON.stringify(read.body) } }),
      connections: options.readConnections,
      duration: options.readSeconds,
    };
    await load({ ...spec, duration: 1 }, server); // warmup
    const meter = measureCpu({ server: server.pid, externalDatabase: ctx.externalDatabase });
    const summary = summarize(await load({ ...spec, repeat: options.runs }, server));
    const cpu = meter.stop();
    ctx.rows.push({
      id: read.id,
      label: read.label,
      result: `${thousands(summary.rps)} req/s${problems(summary)}`,
      p50: summary.p50,
      p99: summary.p99,
      target: read.target,
      met: read.limit === undefined ? undefined : summary.p50 <= read.limit && summary.non2xx === 0,
      cpu,
      data: { ...summary },
    });
  }
}

const pageOf = (size: number) => (body: unknown) => {
  const events = (body as { events?: unknown[] }).events;
  return events?.length === size ? null : `expected ${size} events, got ${events?.length}`;
};

function feedCases(ctx: Context, deepCursor: string, deepOffset: number): ReadCase[] {
  const project = `project=${ctx.dataset.projectId}`;
  const category = `category=${FILTER_CATEGORY}`;
  const cursor = `cursor=${encodeURIComponent(deepCursor)}`;
  const deep = `${thousands(deepOffset)} rows in`;
  const target = 'p50 ≤ 3 ms';
  return [
    { id: 'feed.first', label: 'Feed, first page', path: `/api/events?${project}`, target, limit: 3, check: pageOf(50) },
    { id: 'feed.first.category', label: 'Feed, first page, one category', path: `/api/events?${project}&${category}`, target, limit: 3, check: pageOf(50) },
    { id: 'feed.deep', label: `Feed, deep page (${deep})`, path: `/api/events?${project}&${cursor}`, target, limit: 3, check: pageOf(50) },
    {
      id: 'feed.deep.category',
      label: `Feed, deep page (${deep}), one category`,
      path: `/api/events?${project}&${category}&${cursor}`,
      target,
      limit: 3,
      check: pageOf(50),
    },
  ];
}

/**
 * Feed filters served by indexes: a tag that half the tagged rows x 1/50 carry (1% of the data
 * set, `cohort` in dataset.ts), a user's journey (usr_* ids are spread over 50,000 users), and
 * favorites only (1%).
 */
function filterCases(ctx: Context): ReadCase[] {
  const project = `project=${ctx.dataset.projectId}`;
  const target = 'p50 ≤ 25 ms';
  return [
    { id: 'filters.tag', label: 'Feed, one tag matching 1%', path: `/api/events?${project}&tag=cohort:c7`, target, limit: 25, check: pageOf(50) },
    { id: 'filters.journey', label: "Feed, one user's journey", path: `/api/events?${project}&user_id=usr_4242`, target, limit: 25 },
    { id: 'filters.favorites', label: 'Feed, favorites only (1%)', path: `/api/events?${project}&favorited=true`, target, limit: 25, check: pageOf(50) },
    {
      id: 'filters.tag.since',
      label: 'Feed, one tag, last 30 days',
      path: `/api/events?${project}&tag=cohort:c7&since=${Math.floor(Date.now() / 1000) - 30 * 86_400}`,
      target,
      limit: 25,
      check: pageOf(50),
    },
  ];
}

function searchCases(ctx: Context): ReadCase[] {
  const project = `project=${ctx.dataset.projectId}`;
  return [
    {
      id: 'search.rare',
      label: `Search, rare term (10 matches)`,
      path: `/api/events?${project}&search=${RARE_TERM}`,
      target: 'p50 ≤ 25 ms',
      limit: 25,
      check: pageOf(10),
    },
    {
      id: 'search.common',
      label: `Search, common term ("${COMMON_TERM}", ~90% of rows)`,
      path: `/api/events?${project}&search=${COMMON_TERM}`,
      target: 'p50 ≤ 25 ms',
      limit: 25,
      check: pageOf(50),
    },
  ];
}

function chartCases(ctx: Context): ReadCase[] {
  const project = `project=${ctx.dataset.projectId}`;
  const isObject = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? null : 'expected an object keyed by category');
  return [
    { id: 'charts.30', label: 'Charts, 30 days, all categories', path: `/api/charts?${project}&days=30`, check: isObject },
    { id: 'charts.30.category', label: 'Charts, 30 days, one category', path: `/api/charts?${project}&days=30&category=${FILTER_CATEGORY}`, check: isObject },
    { id: 'charts.365', label: 'Charts, 365 days, all categories', path: `/api/charts?${project}&days=365`, target: 'p50 ≤ 15 ms', limit: 15, check: isObject },
    {
      id: 'charts.365.category',
      label: 'Charts, 365 days, one category',
      path: `/api/charts?${project}&days=365&category=${FILTER_CATEGORY}`,
      target: 'p50 ≤ 15 ms',
      limit: 15,
      check: isObject,
    },
  ];
}

/**
 * Funnels and breakdowns (extensions.md, "Funnels and breakdowns"): a 3-step, 30-day funnel over
 * the data set's users (60% of events carry one of 50,000 user ids), and charts of 30 days by a
 * tag (half the events are tagged; read from the per-day counts by tag value, backfilled first by
 * rollUpTag) and filtered by one (read from the events).
 */
function analyticsCases(ctx: Context): ReadCase[] {
  const project = `project=${ctx.dataset.projectId}`;
  const isObject = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? null : 'expected an object');
  const steps = (body: unknown) => ((body as { steps?: unknown[] }).steps?.length === 3 ? null : 'expected 3 steps');
  return [
    {
      id: 'funnels.3.30',
      label: 'Funnel, 3 steps, 30 days',
      path: '/api/funnels',
      body: { project: ctx.dataset.projectId, steps: [{ category: 'signups' }, { category: 'logins' }, { category: 'payments', tags: { plan: 'pro' } }] },
      target: 'p50 ≤ 500 ms at 10M',
      limit: 500,
      check: steps,
    },
    {
      id: 'charts.30.groupBy',
      label: 'Charts, 30 days, by tag plan',
      path: `/api/charts?${project}&days=30&groupBy=tag:plan`,
      target: 'p50 ≤ 50 ms at 10M',
      limit: 50,
      check: isObject,
    },
    { id: 'charts.30.tag', label: 'Charts, 30 days, one tag', path: `/api/charts?${project}&days=30&tag=plan:pro`, check: isObject },
  ];
}

/**
 * Rolls the breakdown's tag key up before it is timed (decision 131): its first chart registers it
 * and starts the backfill in the server, which is then awaited; a chart every few seconds resumes
 * it should it stop. The row reports how long the backfill took (or that the data set had it).
 */
async function rollUpTag(ctx: Context, tagKey: string): Promise<void> {
  const { server, dataset, sql } = ctx;
  const poke = () => api(server.origin, dataset.key, 'GET', `/api/charts?project=${dataset.projectId}&days=1&groupBy=tag:${tagKey}`);
  const state = async () =>
    (
      await sql<{ upTo: number; target: number }[]>`
      SELECT backfilled_up_to AS "upTo", counted_after_id AS target FROM tag_rollup_keys
      WHERE organization_id = ${dataset.organizationId} AND project_id = ${dataset.projectId} AND tag_key = ${tagKey}`
    )[0];
  const before = await state();
  const started = performance.now();
  await poke();
  let now = await state();
  if (!now) throw new Error(`groupBy=tag:${tagKey} did not register the key for the rollup`);
  let lastLog = started;
  while (now.upTo < now.target) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      log(`tag rollup backfill of ${tagKey}: ${thousands(now.upTo)} / ${thousands(now.target)} event ids`);
      await poke();
    }
    now = (await state())!;
  }
  const seconds = (performance.now() - started) / 1000;
  const fresh = !before || before.upTo < before.target;
  ctx.rows.push({
    id: 'charts.groupBy.backfill',
    label: `Tag rollup backfill of ${tagKey}`,
    result: fresh ? `${seconds.toFixed(1)} s (${thousands(now.target)} event ids)` : 'already rolled up',
    data: { seconds: fresh ? seconds : null, eventIds: now.target },
  });
}

/** Runs `once` up to `runs` times (fewer when one run is long) and returns each run's figures. */
async function repeated<T extends { seconds: number }>(runs: number, once: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < runs; i++) {
    results.push(await once());
    if (results[0]!.seconds > REPEAT_UNDER_SECONDS) break;
  }
  return results;
}

async function exportRow(ctx: Context): Promise<void> {
  const { server, dataset } = ctx;
  const label = 'Export, whole organization';
  const once = async () => {
    const rssBefore = residentBytes(server.pid) ?? 0;
    const sampler = sampleResident(server.pid);
    const meter = measureCpu({ server: server.pid, externalDatabase: ctx.externalDatabase });
    const started = performance.now();
    const response = await fetch(`${server.origin}/api/export`, { headers: { authorization: `Bearer ${dataset.key}` } });
    let bytes = 0;
    let text = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (response.status !== 200 && text.length < 500) text += Buffer.from(chunk).toString();
    }
    const seconds = (performance.now() - started) / 1000;
    return { status: response.status, text, bytes, seconds, rssBefore, rss: sampler.stop() ?? 0, cpu: meter.stop() };
  };
  log(`${label}: up to ${ctx.options.runs} runs`);
  const first = await once();
  if (first.status === 404 && routeMissing({ status: 404, body: JSON.parse(first.text || '{}') })) {
    ctx.rows.push(missingRow('export', label));
    return;
  }
  if (first.status !== 200) throw new Error(`GET /api/export answered ${first.status}: ${first.text}`);
  const runs = [first, ...(first.seconds > REPEAT_UNDER_SECONDS ? [] : await repeated(ctx.options.runs - 1, once))];
  const seconds = median(runs.map((r) => r.seconds));
  const megabytes = median(runs.map((r) => r.bytes)) / 1024 / 1024;
  ctx.rows.push({
    id: 'export',
    label: `${label} (${thousands(dataset.events)} events)`,
    result: `${seconds.toFixed(2)} s, ${thousands(megabytes)} MB, ${thousands(dataset.events / seconds)} events/s, RSS ${thousands(runs[0]!.rssBefore / 1024 / 1024)} → ${thousands(Math.max(...runs.map((r) => r.rss)) / 1024 / 1024)} MB`,
    cpu: medianShares(runs.map((r) => r.cpu)),
    data: { seconds, megabytes, runs: runs.map(({ text: _text, ...run }) => run) },
  });
}

/** Seconds until the search indexer has caught up with the organization's events (at most 5 minutes). */
async function searchCaughtUp(sql: postgres.Sql, organizationId: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const [row] = await sql<{ behind: boolean }[]>`
      SELECT coalesce((SELECT indexed_through FROM search_progress WHERE organization_id = ${organizationId}), 0)
             < coalesce((SELECT last_id FROM id_counters WHERE organization_id = ${organizationId} AND kind = 'event'), 0) AS behind`;
    const seconds = (performance.now() - started) / 1000;
    if (!row?.behind || seconds > 300) return seconds;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function importRow(ctx: Context): Promise<void> {
  const { server, dataset, options } = ctx;
  const label = `Import, ${thousands(options.importEvents)}-event document`;
  const document = importDocument(options.importEvents);
  const payload = new Blob([new Uint8Array(document)]);
  const once = async () => {
    const sampler = sampleResident(server.pid);
    const meter = measureCpu({ server: server.pid, externalDatabase: ctx.externalDatabase });
    const started = performance.now();
    const response = await fetch(`${server.origin}/api/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dataset.scratch.key}`, 'content-type': 'application/json' },
      body: payload,
    });
    const text = await response.text();
    const seconds = (performance.now() - started) / 1000;
    return { status: response.status, text, seconds, rss: sampler.stop() ?? 0, cpu: meter.stop() };
  };
  log(`${label} (${thousands(document.byteLength / 1024 / 1024)} MB): up to ${options.runs} runs`);
  const indexed: number[] = [];
  const runs = await repeated(options.runs, async () => {
    const run = await once();
    if (run.status === 200) {
      const imported = (JSON.parse(run.text) as { imported?: { events?: number } }).imported?.events;
      if (imported !== options.importEvents) throw new Error(`POST /api/import imported ${imported} events of ${options.importEvents}`);
      // The next run starts on an installation at rest, not beside the indexing of this one's events.
      indexed.push(await searchCaughtUp(ctx.sql, dataset.scratch.organizationId));
    }
    return run;
  });
  const first = runs[0]!;
  if (first.status === 404 && routeMissing({ status: 404, body: JSON.parse(first.text || '{}') })) {
    ctx.rows.push(missingRow('import', label, '≤ 4 s'));
    return;
  }
  if (first.status !== 200) throw new Error(`POST /api/import answered ${first.status}: ${first.text.slice(0, 300)}`);
  const seconds = median(runs.map((r) => r.seconds));
  ctx.rows.push({
    id: 'import',
    label,
    result:
      `${seconds.toFixed(2)} s, ${thousands(options.importEvents / seconds)} events/s, RSS ${thousands(Math.max(...runs.map((r) => r.rss)) / 1024 / 1024)} MB` +
      (indexed.length ? `; searchable ${median(indexed).toFixed(1)} s later` : ''),
    target: options.importEvents === 100_000 ? '≤ 4 s' : undefined,
    met: options.importEvents === 100_000 ? seconds <= 4 : undefined,
    cpu: medianShares(runs.map((r) => r.cpu)),
    data: { seconds, megabytes: document.byteLength / 1024 / 1024, runs: runs.map((r) => r.seconds), indexedSeconds: indexed },
  });
}

function machine(): Header['machine'] {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    model: (cpus[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    memoryGB: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

function revision(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'migrations'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return `git ${commit}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'git revision unknown';
  }
}

/** host:port/database of DATABASE_URL, never its password. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

async function main(): Promise<void> {
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  for (const store of options.stores) {
    if (store !== 'citus') {
      await benchStore(options, store === 'external' ? process.env.DATABASE_URL?.trim() : undefined, store);
      continue;
    }
    const cluster = startCitusCluster(path.join(BENCH_DATA, `citus-${options.events}`));
    try {
      await benchStore(options, cluster.url, store);
    } finally {
      cluster.stop();
    }
  }
}

/** Every section on one store, its table printed at the end. */
async function benchStore(options: BenchOptions, externalUrl: string | undefined, store: Store): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const timeZone = process.env.TZ?.trim() || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const storeTag = store === 'external' && externalUrl ? `external-${createHash('sha256').update(externalUrl).digest('hex').slice(0, 8)}` : store;
  const workDir = path.join(BENCH_DATA, `${storeTag}-${options.events}`);
  await fs.mkdir(workDir, { recursive: true });
  const profileDir = path.join(BENCH_DATA, 'profiles');
  if (options.profile) await fs.mkdir(profileDir, { recursive: true });

  // The alerts section reads the server's lag histogram from /metrics.
  if (options.sections.has('alerts')) process.env.METRICS_TOKEN = METRICS_TOKEN;
  // The server runs as `npm start` runs it: compiled, when the sources compile.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.js'), '--if-stale'], { stdio: 'inherit' });
  log(`starting the server (${externalUrl ? `DATABASE_URL ${describeUrl(externalUrl)}` : `embedded PostgreSQL in ${path.relative(ROOT, workDir)}`})`);
  const server = await startServer({
    dataDir: workDir,
    databaseUrl: externalUrl,
    timeZone,
    logFile: path.join(workDir, 'server.log'),
    nodeFlags: [...options.nodeFlags, ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  });
  let sql: postgres.Sql | undefined;
  const rows: Row[] = [];
  let header: Header;
  try {
    const databaseUrl = externalUrl ?? (await attachToRunningCluster(workDir));
    if (!databaseUrl) throw new Error('cannot reach the embedded cluster the server started');
    sql = postgres(databaseUrl, { max: 2, onnotice: () => {}, connection: { TimeZone: timeZone, application_name: 'eventlog-bench' } });
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: workDir, TZ: timeZone };
    // The command line must use the server's database: the external one, Citus, or the embedded one.
    if (externalUrl) cliEnv.DATABASE_URL = externalUrl;
    else delete cliEnv.DATABASE_URL;
    const manifestFile = path.join(workDir, 'dataset.json');
    const dataset = await ensureDataset(sql, options.events, { manifestFile, cliEnv, origin: server.origin, timeZone, log }, options.reload);
    await removeScratch(sql, dataset.scratch.organizationId, log);
    const [versionRow] = await sql<{ version: string }[]>`SELECT current_setting('server_version') AS version`;
    const version = versionRow?.version ?? 'unknown';
    header = {
      date: new Date()
        .toISOString()
        .replace(/:\d\d\.\d+Z$/, ' UTC')
        .replace('T', ' '),
      machine: machine(),
      load: { before: loadBefore },
      store:
        store === 'citus'
          ? `Citus ${await citusVersion(sql)} on PostgreSQL ${version}, coordinator + 1 worker, 32 shards (${describeUrl(databaseUrl)})`
          : externalUrl
            ? `PostgreSQL ${version} via DATABASE_URL (${describeUrl(externalUrl)})`
            : `embedded PostgreSQL ${version}`,
      dataset:
        `${thousands(options.events)} events in one project, 20 categories, 365 days ` +
        `(${dataset.reused ? 'reused' : `loaded in ${dataset.loadSeconds} s`})`,
      method:
        `median of ${options.runs} run(s); ingest ${options.ingestConnections} connections × ${options.ingestSeconds} s` +
        `${options.ingestRate ? ` at ${thousands(options.ingestRate)} requests/s, evenly spaced` : ''}; ` +
        `reads ${options.readConnections} connection(s) × ${options.readSeconds} s; load generator ` +
        `${options.ingestRate ? 'paced requests (ingest) and autocannon (reads)' : 'autocannon'} in its own process`,
      revision: revision() + (options.nodeFlags.length ? `; server node flags: ${options.nodeFlags.join(' ')}` : ''),
    };
    const idleRss = residentBytes(server.pid) ?? 0;
    const ctx: Context = { options, server, sql, databaseUrl, externalDatabase: Boolean(externalUrl), dataset, idleRss, workDir, rows };

    // Before any measured load: the data set as loaded, its search entries written.
    const disk = await measureDisk(sql, store === 'citus');
    if (!dataset.reused) await rememberDisk(manifestFile, disk);
    rows.push(diskRow(disk, dataset.reused ? dataset.diskAsLoaded : undefined));
    if (options.sections.has('ingest')) {
      await ingestSection(ctx);
      // The ingest runs' rows go before the reads, so that every read sees the same data set.
      await removeScratch(sql, dataset.scratch.organizationId, log);
    }
    if (options.sections.has('feed')) {
      const deepOffset = Math.min(500_000, Math.floor(options.events / 2));
      await readSection(ctx, feedCases(ctx, await cursorAt(sql, dataset.organizationId, dataset.projectId, deepOffset), deepOffset));
    }
    if (options.sections.has('search')) await readSection(ctx, searchCases(ctx));
    if (options.sections.has('charts')) await readSection(ctx, chartCases(ctx));
    if (options.sections.has('filters')) await readSection(ctx, filterCases(ctx));
    if (options.sections.has('analytics')) {
      await rollUpTag(ctx, 'plan');
      await readSection(ctx, analyticsCases(ctx));
    }
    if (options.sections.has('transfer') || options.sections.has('import')) {
      // Export first: the import's parse leaves a large heap behind that would hide whether the
      // export's memory stays flat.
      if (options.sections.has('transfer')) await exportRow(ctx);
      await importRow(ctx);
      await removeScratch(sql, dataset.scratch.organizationId, log);
      const versusImport = batchVersusImport(rows, options.importEvents);
      if (versusImport) rows.push(versusImport);
    }
    if (options.sections.has('alerts')) {
      const projectId = await createProject(server.origin, dataset.scratch.key, 'Bench alerts');
      const ingest = { organizationId: dataset.scratch.organizationId, projectId, key: dataset.scratch.key };
      const section = { sql, server, externalDatabase: Boolean(externalUrl), ingest, log, load: (spec: LoadSpec) => load(spec, server) };
      rows.push(
        ...(await alertsSection({ ...section, ingestSeconds: options.ingestSeconds, ingestConnections: options.ingestConnections, runs: options.runs })),
      );
      await removeScratch(sql, dataset.scratch.organizationId, log);
    }
    if (options.sections.has('preferences')) {
      const projectId = await createProject(server.origin, dataset.scratch.key, 'Bench preferences');
      const subscribedProjectId = await createProject(server.origin, dataset.scratch.key, 'Bench preferences, subscribed');
      const ingest = { organizationId: dataset.scratch.organizationId, projectId, subscribedProjectId, key: dataset.scratch.key };
      const section = { sql, server, externalDatabase: Boolean(externalUrl), ingest, log, load: (spec: LoadSpec) => load(spec, server) };
      const { ingestSeconds, ingestConnections, warmupSeconds, runs } = options;
      rows.push(...(await preferencesSection({ ...section, ingestSeconds, ingestConnections, warmupSeconds, runs })));
      await removeScratch(sql, dataset.scratch.organizationId, log);
    }
  } finally {
    await sql?.end({ timeout: 5 });
    log('stopping the server');
    await server.stop();
  }

  header.load.after = os.loadavg()[0]!;
  const document = { ...header, options: { ...options, sections: [...options.sections] }, rows };
  const resultsDir = path.join(BENCH_DATA, 'results');
  await fs.mkdir(resultsDir, { recursive: true });
  const resultFile = path.join(resultsDir, `${storeTag}-${options.events}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await fs.writeFile(resultFile, JSON.stringify(document, null, 2));
  log(`results saved to ${path.relative(ROOT, resultFile)}`);
  process.stdout.write(options.json ? `${JSON.stringify(document, null, 2)}\n` : `\n${formatTable(header, rows)}\n`);
}

async function citusVersion(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ version: string }[]>`SELECT extversion AS version FROM pg_extension WHERE extname = 'citus'`;
  return row?.version ?? 'unknown';
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

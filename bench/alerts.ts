/**
 * `npm run bench -- --only alerts`: 10,000 enabled alerts over 1,000 organizations (a mix of
 * atLeast and fewerThan, windows from 10 s to 25 h) while POST /api/events runs at the usual
 * load. Reports the evaluation lag's p99 (the server's own histogram), the ingest throughput with
 * alerts as a ratio of the same load without them (interleaved, one run each per round), and the
 * CPU evaluation costs on an installation with no ingest at 1,000 and at 10,000 alerts.
 */
import type postgres from 'postgres';
import { type CpuShares, measureCpu } from './cpu.ts';
import { type LoadResult, type LoadSpec, median } from './measure.ts';
import type { Running } from './processes.ts';
import type { Row } from './report.ts';

export const METRICS_TOKEN = 'bench-alerts-metrics';
const ORGANIZATIONS = 1000;
const ALERTS_PER_ORGANIZATION = 10;
const WINDOWS = [10, 60, 300, 3600, 90_000];
const PREFIX = 'benchalert';
/** Seconds the idle cost is measured at each size. */
const IDLE_SECONDS = 20;
/** Seconds after switching alerts on before the idle cost is measured. */
const SETTLE_SECONDS = 70;

export interface AlertsContext {
  sql: postgres.Sql;
  server: Running;
  externalDatabase: boolean;
  ingestSeconds: number;
  ingestConnections: number;
  runs: number;
  /** The organization and project the ingest load writes to (it gets 10 alerts too). */
  ingest: { organizationId: string; projectId: string; key: string };
  load(spec: LoadSpec): Promise<LoadResult[]>;
  log(message: string): void;
}

/** The bench's organizations with a project and ten alerts each, plus ten on the ingest project. */
async function createAlerts(ctx: AlertsContext): Promise<void> {
  const { sql } = ctx;
  await removeAlerts(sql);
  await sql`
    INSERT INTO organizations (id, name) SELECT ${PREFIX} || n, 'Bench alerts ' || n FROM generate_series(1, ${ORGANIZATIONS - 1}) AS n`;
  await sql`
    INSERT INTO projects (organization_id, id, name) SELECT ${PREFIX} || n, 'p' || n, 'Watched' FROM generate_series(1, ${ORGANIZATIONS - 1}) AS n`;
  const targets = [
    { organizationId: ctx.ingest.organizationId, projectId: ctx.ingest.projectId },
    ...Array.from({ length: ORGANIZATIONS - 1 }, (_, i) => ({ organizationId: `${PREFIX}${i + 1}`, projectId: `p${i + 1}` })),
  ];
  const rows = targets.flatMap((target, o) =>
    Array.from({ length: ALERTS_PER_ORGANIZATION }, (_, a) => ({
      organization_id: target.organizationId,
      id: `${PREFIX}${o}x${a}`,
      project_id: target.projectId,
      count_mode: a % 2 ? 'fewerThan' : 'atLeast',
      threshold: 1 + ((o * 7 + a * 13) % 100),
      window_seconds: WINDOWS[(o + a) % WINDOWS.length]!,
      filter: a % 3 === 0 ? '{}' : JSON.stringify({ category: `cat${a % 20}` }),
    })),
  );
  for (let i = 0; i < rows.length; i += 2000) {
    await sql`
      INSERT INTO alerts (organization_id, id, project_id, name, filter, count_mode, threshold, window_seconds, category, enabled,
                          state, state_since, window_start, next_due_at, created_at)
      SELECT r.organization_id, r.id, r.project_id, 'Bench ' || r.id, r.filter::jsonb, r.count_mode, r.threshold, r.window_seconds,
             'alerts', true, 'ok', now(), now(), now(), now()
      FROM json_to_recordset(${JSON.stringify(rows.slice(i, i + 2000))}::text::json)
        AS r(organization_id text, id text, project_id text, count_mode text, threshold int, window_seconds int, filter text)`;
  }
}

async function removeAlerts(sql: postgres.Sql): Promise<void> {
  await sql`DELETE FROM alert_schedules WHERE organization_id LIKE ${`${PREFIX}%`}`;
  await sql`DELETE FROM organizations WHERE id LIKE ${`${PREFIX}%`}`;
  await sql`DELETE FROM alerts WHERE id LIKE ${`${PREFIX}%`}`;
}

/** Switches the engine's view of the first `organizations` bench organizations on (due now) or every one off. */
async function activate(ctx: AlertsContext, organizations: number): Promise<void> {
  const ids = [ctx.ingest.organizationId, ...Array.from({ length: ORGANIZATIONS - 1 }, (_, i) => `${PREFIX}${i + 1}`)];
  await ctx.sql`UPDATE alert_schedules SET active = false WHERE organization_id = ANY(${ids}::text[])`;
  const on = ids.slice(0, organizations);
  if (on.length === 0) return;
  await ctx.sql`
    INSERT INTO alert_schedules (organization_id, active, seen_event_id, due_at)
    SELECT o, true, coalesce((SELECT c.last_id FROM id_counters c WHERE c.organization_id = o AND c.kind = 'event'), 0), now()
    FROM unnest(${on}::text[]) AS o
    ON CONFLICT (organization_id) DO UPDATE SET active = true, due_at = excluded.due_at`;
}

/**
 * Waits until the engine has taken its first look at every switched-on organization (none due
 * or held), at most a minute: that look counts every alert's window once, a burst that belongs
 * to switching 10,000 alerts on, not to ingest beside them.
 */
async function settle(ctx: AlertsContext): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const [row] = await ctx.sql<{ busy: number }[]>`
      SELECT count(*)::int AS busy FROM alert_schedules
      WHERE active AND (due_at <= now() OR leased_until > now())`;
    if (row!.busy === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  ctx.log(`alerts: first look at every organization done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The lag histogram's cumulative buckets as the server exposes them. */
async function lagBuckets(server: Running): Promise<Map<number, number>> {
  const reply = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await reply.text();
  const buckets = new Map<number, number>();
  for (const match of text.matchAll(/^eventlog_alert_evaluation_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) {
    buckets.set(match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2]));
  }
  if (buckets.size === 0) throw new Error(`GET /metrics answered ${reply.status} without the lag histogram: ${text.slice(0, 300)}`);
  return buckets;
}

/** The p99 of what was observed between two scrapes, as the upper edge of its bucket. */
function p99Between(before: Map<number, number>, after: Map<number, number>): { p99: number; observed: number } {
  const edges = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  for (const edge of edges) {
    if ((after.get(edge) ?? 0) - (before.get(edge) ?? 0) >= 0.99 * total) return { p99: edge, observed: total };
  }
  return { p99: NaN, observed: total };
}

const cores = (shares: CpuShares | null, group: string) => shares?.[group] ?? 0;

export async function alertsSection(ctx: AlertsContext): Promise<Row[]> {
  const rows: Row[] = [];
  ctx.log(`alerts: creating ${ORGANIZATIONS * ALERTS_PER_ORGANIZATION} alerts over ${ORGANIZATIONS} organizations`);
  await createAlerts(ctx);
  try {
    // Idle cost: the engine alone, at 1,000 alerts (100 organizations) and at 10,000.
    for (const organizations of [ORGANIZATIONS / 10, ORGANIZATIONS]) {
      await activate(ctx, organizations);
      // Past the first look at every alert and the first windows (10 s, 60 s) closing.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
      const meter = measureCpu({ server: ctx.server.pid, externalDatabase: ctx.externalDatabase });
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      const shares = meter.stop();
      const alerts = organizations * ALERTS_PER_ORGANIZATION;
      rows.push({
        id: `alerts.idle.${alerts}`,
        label: `Alerts, no ingest: ${alerts.toLocaleString('en-US')} alerts`,
        result: `${(cores(shares, 'server') * 1000).toFixed(0)} ms server + ${(cores(shares, 'database') * 1000).toFixed(0)} ms database CPU per second`,
        cpu: shares,
      });
    }
    // Ingest with and without alerts, interleaved; the lag is read from the server's histogram.
    const spec: LoadSpec = {
      method: 'POST',
      origin: ctx.server.origin,
      path: '/api/events',
      connections: ctx.ingestConnections,
      duration: ctx.ingestSeconds,
      warmup: 0,
      headers: { authorization: `Bearer ${ctx.ingest.key}` },
      bodies: { kind: 'api', project: ctx.ingest.projectId },
    };
    const ratios: number[] = [];
    const lags: number[] = [];
    for (let round = 0; round < ctx.runs; round++) {
      await activate(ctx, 0);
      ctx.log(`alerts round ${round + 1}/${ctx.runs}: ingest without alerts`);
      const without = (await ctx.load(spec))[0]!;
      await activate(ctx, ORGANIZATIONS);
      await settle(ctx);
      const before = await lagBuckets(ctx.server);
      ctx.log(`alerts round ${round + 1}/${ctx.runs}: ingest with ${ORGANIZATIONS * ALERTS_PER_ORGANIZATION} alerts`);
      const withAlerts = (await ctx.load(spec))[0]!;
      const lag = p99Between(before, await lagBuckets(ctx.server));
      ratios.push(withAlerts.rps / without.rps);
      lags.push(lag.p99);
    }
    const ratio = median(ratios);
    const lag = median(lags);
    rows.push(
      {
        id: 'alerts.ingest.ratio',
        label: 'POST /api/events with 10,000 alerts vs without',
        result: `${(ratio * 100).toFixed(0)}%`,
        target: '≥ 90%',
        met: ratio >= 0.9,
        data: { ratios },
      },
      {
        id: 'alerts.lag.p99',
        label: 'Alert evaluation lag under ingest, p99',
        result: `≤ ${lag} s (histogram bucket)`,
        target: '≤ 15 s',
        met: lag <= 15,
        data: { lags },
      },
    );
  } finally {
    await activate(ctx, 0).catch(() => {});
    await removeAlerts(ctx.sql);
  }
  return rows;
}

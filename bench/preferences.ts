/**
 * `npm run bench -- --only preferences`: POST /api/events (the ingest mix, a twentieth notify)
 * into an organization of 1,000 members, without notification preferences and with a row for
 * each member (project levels, email copies, quiet hours in five zones, about half of them quiet
 * now, a fifth snoozed), interleaved in the same run. Reports CPU per event of each and their
 * ratio: the issue's target is within 5% (decision 205 resolves preferences at fan-out only).
 *
 * Every member has a browser subscribed to another project of the organization, and no member's
 * preferences let the ingest project's notify events reach them (levels "none" and "alerts", an
 * email copy only at those levels), so both phases deliver exactly the same: nothing to the
 * members. What differs is only whether the preferences are there to be read.
 */
import type postgres from 'postgres';
import { type CpuShares, cpuPerEvent, measureCpu, medianShares } from './cpu.ts';
import { type LoadResult, type LoadSpec, median, summarize } from './measure.ts';
import type { Running } from './processes.ts';
import { type Row, thousands } from './report.ts';

const MEMBERS = 1000;
const PREFIX = 'benchpref';
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC', 'Australia/Sydney'];
const TARGET_RATIO = 1.05;

export interface PreferencesContext {
  sql: postgres.Sql;
  server: Running;
  externalDatabase: boolean;
  ingestSeconds: number;
  ingestConnections: number;
  warmupSeconds: number;
  runs: number;
  /** The organization the load writes to, its ingest project and a project its members subscribe to. */
  ingest: { organizationId: string; projectId: string; subscribedProjectId: string; key: string };
  load(spec: LoadSpec): Promise<LoadResult[]>;
  log(message: string): void;
}

/** The members and their browsers (on the subscribed project), without preferences yet. */
async function createMembers(ctx: PreferencesContext): Promise<void> {
  const { sql, ingest } = ctx;
  await removeMembers(ctx);
  await sql`
    INSERT INTO users (organization_id, id, email, password_hash, role)
    SELECT ${ingest.organizationId}, ${PREFIX} || n, ${PREFIX} || n || '-' || ${ingest.organizationId} || '@bench.invalid', '!', 'member'
    FROM generate_series(1, ${MEMBERS}) AS n`;
  await sql`
    INSERT INTO push_subscriptions (organization_id, id, project_id, user_id, endpoint, p256dh, auth)
    SELECT ${ingest.organizationId}, ${PREFIX} || n, ${ingest.subscribedProjectId}, ${PREFIX} || n,
           'https://push.bench.invalid/' || n, 'bench-p256dh', 'bench-auth'
    FROM generate_series(1, ${MEMBERS}) AS n`;
}

/** Members go with their preferences and subscriptions (ON DELETE CASCADE). */
async function removeMembers(ctx: PreferencesContext): Promise<void> {
  await ctx.sql`DELETE FROM users WHERE organization_id = ${ctx.ingest.organizationId} AND id LIKE ${`${PREFIX}%`}`;
}

/** Member n's preferences: quiet hours always, weeknights, weekend days or none; snoozed, snoozed before or not. */
function preferencesOf(n: number, ingest: PreferencesContext['ingest'], now: number) {
  const level = n % 2 ? 'none' : 'alerts';
  const timeZone = ZONES[n % ZONES.length]!;
  const quiet = [
    null,
    { timeZone, start: '00:00', end: '00:00', days: [1, 2, 3, 4, 5, 6, 7] },
    { timeZone, start: '22:00', end: '07:00', days: [1, 2, 3, 4, 5] },
    { timeZone, start: '09:00', end: '17:00', days: [6, 7] },
  ][n % 4];
  const snooze = n % 5 === 0 ? now + 86_400_000 : n % 5 === 1 ? now - 86_400_000 : null;
  return {
    user_id: `${PREFIX}${n}`,
    projects: JSON.stringify({ [ingest.projectId]: level, [ingest.subscribedProjectId]: n % 3 ? 'all' : 'alerts' }),
    email: n % 3 === 0,
    quiet_hours: quiet ? JSON.stringify(quiet) : null,
    snoozed_until: snooze === null ? null : new Date(snooze).toISOString(),
  };
}

/** Every member gets a preferences row (`on`), or none has one. */
async function setPreferences(ctx: PreferencesContext, on: boolean): Promise<void> {
  const { sql, ingest } = ctx;
  await sql`DELETE FROM notification_preferences WHERE organization_id = ${ingest.organizationId} AND user_id LIKE ${`${PREFIX}%`}`;
  if (!on) return;
  const now = Date.now();
  const rows = Array.from({ length: MEMBERS }, (_, i) => preferencesOf(i + 1, ingest, now));
  await sql`
    INSERT INTO notification_preferences (organization_id, user_id, projects, email, quiet_hours, snoozed_until)
    SELECT ${ingest.organizationId}, r.user_id, r.projects::jsonb, r.email, r.quiet_hours::jsonb, r.snoozed_until
    FROM json_to_recordset(${JSON.stringify(rows)}::text::json)
      AS r(user_id text, projects text, email boolean, quiet_hours text, snoozed_until timestamptz)`;
  await sql`ANALYZE notification_preferences`;
}

/** What the members were sent during the runs: nothing, in both phases, or the comparison is not like for like. */
async function deliveredToMembers(ctx: PreferencesContext): Promise<number> {
  const [row] = await ctx.sql<{ n: number }[]>`
    SELECT (SELECT count(*) FROM push_jobs WHERE organization_id = ${ctx.ingest.organizationId})
         + (SELECT count(*) FROM held_notifications WHERE organization_id = ${ctx.ingest.organizationId})
         + (SELECT count(*) FROM mail_jobs WHERE organization_id = ${ctx.ingest.organizationId}) AS n`;
  return Number(row?.n ?? 0);
}

export async function preferencesSection(ctx: PreferencesContext): Promise<Row[]> {
  ctx.log(`preferences: ${MEMBERS} members with a browser each`);
  await createMembers(ctx);
  const spec: LoadSpec = {
    method: 'POST',
    origin: ctx.server.origin,
    path: '/api/events',
    connections: ctx.ingestConnections,
    duration: ctx.ingestSeconds,
    headers: { authorization: `Bearer ${ctx.ingest.key}` },
    bodies: { kind: 'api', project: ctx.ingest.projectId },
  };
  const runs = { without: [] as LoadResult[], with: [] as LoadResult[] };
  const cpu = { without: [] as Array<CpuShares | null>, with: [] as Array<CpuShares | null> };
  const measured = async (phase: 'without' | 'with', warmup: number) => {
    await setPreferences(ctx, phase === 'with');
    ctx.log(`preferences: ingest ${phase} preferences`);
    // The warmup runs in a load process of its own, so that the CPU meter leaves it out.
    if (warmup) await ctx.load({ ...spec, duration: warmup });
    const meter = measureCpu({ server: ctx.server.pid, externalDatabase: ctx.externalDatabase });
    runs[phase].push((await ctx.load(spec))[0]!);
    cpu[phase].push(meter.stop());
  };
  try {
    // Rounds alternate which phase goes first, so that the table growing under them weighs on each alike.
    for (let round = 0; round < ctx.runs; round++) {
      const warmup = round === 0 ? ctx.warmupSeconds : 0;
      const order = round % 2 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      await measured(order[0], warmup);
      await measured(order[1], 0);
    }
    const delivered = await deliveredToMembers(ctx);
    if (delivered > 0) throw new Error(`preferences: the members were sent ${delivered} pushes, held rows or mails; the phases are not like for like`);
  } finally {
    await removeMembers(ctx);
  }

  const perEvent = { without: cpuPerEvent(runs.without, cpu.without), with: cpuPerEvent(runs.with, cpu.with) };
  // The median of each round's ratio: a pair shares whatever else the machine was doing then.
  const ratios = runs.with.flatMap((run, round) => {
    const a = cpuPerEvent([run], [cpu.with[round] ?? null]);
    const b = cpuPerEvent([runs.without[round]!], [cpu.without[round] ?? null]);
    return a !== undefined && b !== undefined ? [a / b] : [];
  });
  const ratio = ratios.length ? median(ratios) : undefined;
  const phaseRow = (phase: 'without' | 'with', label: string): Row => {
    const summary = summarize(runs[phase]);
    const micros = perEvent[phase];
    return {
      id: `preferences.ingest.${phase}`,
      label,
      result: `${thousands(summary.rps)} events/s${micros === undefined ? '' : `, ${Math.round(micros)} µs CPU per event`}`,
      p50: summary.p50,
      p99: summary.p99,
      cpu: medianShares(cpu[phase]),
      data: { ...summary, cpuMicros: micros, runsDetail: runs[phase] },
    };
  };
  return [
    phaseRow('without', `Ingest, ${thousands(MEMBERS)} members without preferences`),
    phaseRow('with', `Ingest, ${thousands(MEMBERS)} members with preferences`),
    {
      id: 'preferences.cpuRatio',
      label: 'CPU per event with preferences vs without',
      result: ratio === undefined ? 'n/a (no CPU figures)' : `${ratio.toFixed(3)}× (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
      target: `≤ ${TARGET_RATIO.toFixed(2)}×`,
      met: ratio === undefined ? undefined : ratio <= TARGET_RATIO,
      data: { ratio, ratios, withMicros: perEvent.with, withoutMicros: perEvent.without },
    },
  ];
}

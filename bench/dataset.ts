import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type postgres from 'postgres';
import { encodeCursor } from '../src/features/events/cursor.ts';
import { indexNextBatch } from '../src/features/events/searchIndexer.ts';
import type { DiskPerEvent } from './disk.ts';
import { ROOT } from './measure.ts';
import {
  CATEGORIES,
  CHANNELS,
  DESCRIPTION_TEMPLATES,
  ICONS,
  NAMES,
  PLANS,
  RARE_TERM,
  REGIONS,
  TITLE_TEMPLATES,
  largeMetadata,
  prng,
  smallMetadata,
} from './vocabulary.ts';

type Sql = postgres.Sql;

/** What a loaded data set is, kept beside it so the next run reuses it. */
export interface Dataset {
  events: number;
  organizationId: string;
  projectId: string;
  /** Plaintext keys: bench-only organizations on a bench-only database. */
  key: string;
  /** A second organization for the writes (ingest, import) that must not disturb the data set. */
  scratch: { organizationId: string; key: string };
  timeZone: string;
  loadSeconds: number;
  loadedAt: string;
  complete: boolean;
  /** Indexes dropped for a fast load, recreated at its end (or by the next run after a crash). */
  droppedIndexes?: Array<{ name: string; definition: string }>;
  /** Disk per event right after the load, before any run wrote and removed events (disk.ts). */
  diskAsLoaded?: DiskPerEvent;
}

export interface DatasetPlace {
  manifestFile: string;
  /** The environment the `eventlog` command needs to reach the same database as the server. */
  cliEnv: NodeJS.ProcessEnv;
  origin: string;
  timeZone: string;
  log: (message: string) => void;
}

/** Rows per INSERT ... SELECT; two run at once (one per core the database can use). */
const CHUNK = 100_000;
/** Below this many rows the indexes are kept during the load: rebuilding them costs more. */
const DROP_INDEXES_FROM = 100_000;
/** A marker replaced by each event's reference number in the metadata templates. */
const MARK = 987654321;

async function readManifest(file: string): Promise<Dataset | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Dataset;
  } catch {
    return null;
  }
}

/** Keeps the disk use of a data set just loaded with it, for the runs that reuse it. */
export async function rememberDisk(file: string, disk: DiskPerEvent): Promise<void> {
  const manifest = await readManifest(file);
  if (manifest) await writeManifest(file, { ...manifest, diskAsLoaded: disk });
}

async function writeManifest(file: string, dataset: Dataset): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(`${file}.tmp`, JSON.stringify(dataset, null, 2), { mode: 0o600 });
  await fs.rename(`${file}.tmp`, file);
}

/** Runs an `eventlog` command (the operator's CLI) and returns the JSON it prints. */
export function eventlogCommand<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/eventlog.js'), ...args], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`eventlog ${args.slice(0, 2).join(' ')} failed: ${stderr.trim()}`));
      resolve(JSON.parse(stdout) as T);
    });
  });
}

export async function api<T>(origin: string, key: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed as T };
}

async function newOrganization(name: string, place: DatasetPlace): Promise<{ organizationId: string; key: string }> {
  const org = await eventlogCommand<{ id: string }>(['org', 'create', name], place.cliEnv);
  const key = await eventlogCommand<{ key: string }>(['key', 'create', org.id], place.cliEnv);
  return { organizationId: org.id, key: key.key };
}

export async function createProject(origin: string, key: string, name: string): Promise<string> {
  const reply = await api<{ id: string }>(origin, key, 'POST', '/api/projects', { name });
  if (reply.status !== 201) throw new Error(`POST /api/projects answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

async function keyWorks(origin: string, key: string): Promise<boolean> {
  return (await api(origin, key, 'GET', '/api/projects')).status === 200;
}

/** The data set of `events` rows, loaded now unless an intact one of that size is there. */
export async function ensureDataset(sql: Sql, events: number, place: DatasetPlace, reload: boolean): Promise<Dataset & { reused: boolean }> {
  const previous = await readManifest(place.manifestFile);
  if (previous?.droppedIndexes?.length) await restoreIndexes(sql, previous.droppedIndexes, place.log);
  if (previous && !reload && previous.complete && previous.events === events && (await intact(sql, previous, place))) {
    if (previous.timeZone !== place.timeZone) {
      place.log(`time zone changed from ${previous.timeZone} to ${place.timeZone}: rebuilding the daily counts`);
      await rebuildDailyCounts(sql, previous.organizationId, previous.projectId);
      previous.timeZone = place.timeZone;
      await writeManifest(place.manifestFile, previous);
    }
    await ensureSearchEntries(sql, previous, place.log);
    return { ...previous, reused: true };
  }
  if (previous?.projectId) {
    place.log('removing the previous, incomplete or different data set');
    await sql`DELETE FROM events WHERE organization_id = ${previous.organizationId} AND project_id = ${previous.projectId}`;
    await sql`DELETE FROM projects WHERE organization_id = ${previous.organizationId} AND id = ${previous.projectId}`;
    // Give back the space of the removed rows and of earlier runs' writes, so that the new data
    // set's disk per event is what the product makes, not what this table once held. Quick on a
    // table that is now nearly empty.
    await sql.unsafe('VACUUM FULL events, search_blocks').catch((error: unknown) => place.log(`VACUUM FULL failed: ${String(error)}`));
  }

  const started = Date.now();
  place.log(`loading a data set of ${events.toLocaleString('en-US')} events`);
  const main = await newOrganization(`Bench ${events}`, place);
  const scratch = previous?.scratch && (await keyWorks(place.origin, previous.scratch.key)) ? previous.scratch : await newOrganization('Bench scratch', place);
  const projectId = await createProject(place.origin, main.key, `Bench ${events.toLocaleString('en-US')} events`);
  const dataset: Dataset = {
    events,
    ...main,
    projectId,
    scratch,
    timeZone: place.timeZone,
    loadSeconds: 0,
    loadedAt: new Date().toISOString(),
    complete: false,
  };
  await writeManifest(place.manifestFile, dataset);

  if (events >= DROP_INDEXES_FROM) {
    dataset.droppedIndexes = await secondaryIndexes(sql);
    await writeManifest(place.manifestFile, dataset);
    for (const index of dataset.droppedIndexes) await sql`DROP INDEX IF EXISTS ${sql(index.name)}`;
  }
  await loadEvents(sql, main.organizationId, projectId, events, place.log);
  if (dataset.droppedIndexes) {
    await restoreIndexes(sql, dataset.droppedIndexes, place.log);
    delete dataset.droppedIndexes;
    await writeManifest(place.manifestFile, dataset);
  }
  await sql`
    INSERT INTO categories (organization_id, project_id, name)
    SELECT ${main.organizationId}, ${projectId}, unnest(${[...CATEGORIES]}::text[]) ON CONFLICT DO NOTHING`;
  // The loaded events hold ids 1..events of the organization: its counter continues after them.
  await sql`
    INSERT INTO id_counters (organization_id, kind, last_id) VALUES (${main.organizationId}, 'event', ${events})
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = excluded.last_id`;
  await rebuildDailyCounts(sql, main.organizationId, projectId);
  await ensureSearchEntries(sql, dataset, place.log);
  place.log('vacuum, analyze, checkpoint');
  await sql.unsafe('VACUUM (ANALYZE) events');
  await sql.unsafe('ANALYZE event_daily_counts');
  await sql.unsafe('CHECKPOINT').catch(() => {}); // needs privileges an external database may not grant
  dataset.loadSeconds = Math.round((Date.now() - started) / 1000);
  dataset.complete = true;
  await writeManifest(place.manifestFile, dataset);
  place.log(`data set ready in ${dataset.loadSeconds} s`);
  return { ...dataset, reused: false };
}

async function intact(sql: Sql, dataset: Dataset, place: DatasetPlace): Promise<boolean> {
  const [row] = await sql<{ counted: string | null }[]>`
    SELECT sum(d.count)::text AS counted FROM event_daily_counts d
    WHERE d.organization_id = ${dataset.organizationId} AND d.project_id = ${dataset.projectId}`;
  if (Number(row?.counted ?? 0) !== dataset.events) return false;
  return (await keyWorks(place.origin, dataset.key)) && (await keyWorks(place.origin, dataset.scratch.key));
}

/**
 * The search blocks of the data set, written by the server's own indexing step
 * (migrations/126_search_blocks.sql) before any measurement, so that none shares the machine with
 * a backfill. The server's indexer may take turns with it (each transaction holds the
 * organization); it waits for the watermark to reach the last event either way.
 */
async function ensureSearchEntries(sql: Sql, dataset: Dataset, log: (m: string) => void): Promise<void> {
  const started = Date.now();
  let written = 0;
  for (;;) {
    const [progress] = await sql<{ through: number }[]>`
      SELECT coalesce((SELECT indexed_through FROM search_progress WHERE organization_id = ${dataset.organizationId}), 0) AS through`;
    if ((progress?.through ?? 0) >= dataset.events) break;
    const indexed = await indexNextBatch(sql, dataset.organizationId);
    if (indexed === 0) await setTimeout(100);
    written += indexed;
  }
  if (written === 0) return;
  await sql.unsafe('VACUUM (ANALYZE) search_blocks');
  log(`search blocks of ${written.toLocaleString('en-US')} events written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Every index of `events` except the ones behind constraints (the primary key). */
async function secondaryIndexes(sql: Sql): Promise<Array<{ name: string; definition: string }>> {
  return sql<Array<{ name: string; definition: string }>>`
    SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition
    FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
    WHERE x.indrelid = 'events'::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)
    ORDER BY c.relname`;
}

async function restoreIndexes(sql: Sql, indexes: Array<{ name: string; definition: string }>, log: (m: string) => void): Promise<void> {
  const present = new Set((await secondaryIndexes(sql)).map((index) => index.name));
  for (const index of indexes) {
    if (present.has(index.name)) continue;
    const started = Date.now();
    await sql.begin(async (tx) => {
      await tx`SET LOCAL maintenance_work_mem = '1GB'`;
      await tx.unsafe(index.definition);
    });
    log(`index ${index.name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Per-day, per-category counts recomputed from the events, in the session's (= the server's) time zone. */
async function rebuildDailyCounts(sql: Sql, organizationId: string, projectId: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`DELETE FROM event_daily_counts WHERE organization_id = ${organizationId} AND project_id = ${projectId}`;
    await tx`
      INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
      SELECT organization_id, project_id, created_at::date, category, count(*) FROM events
      WHERE organization_id = ${organizationId} AND project_id = ${projectId}
      GROUP BY 1, 2, 3, 4`;
  });
}

/** JSON templates for format(): the reference number becomes `%s`. */
function metadataTemplates(make: typeof largeMetadata, seed: number): string[] {
  return Array.from({ length: 16 }, (_, i) => JSON.stringify(make(prng(seed + i), MARK)).replaceAll(String(MARK), '%s'));
}

/**
 * Events spread evenly over the last 365 days in id order (as a real log grows), with the same
 * mix as the ingest bodies, generated inside the database. Deterministic: row i is always the
 * same event. Ten rows, evenly spaced, carry the rare search term.
 */
async function loadEvents(sql: Sql, organizationId: string, projectId: string, count: number, log: (m: string) => void): Promise<void> {
  const spanMicros = 365n * 86_400n * 1_000_000n;
  const startMicros = BigInt(Date.now()) * 1000n - spanMicros;
  const stepMicros = spanMicros / BigInt(count);
  const rareEvery = Math.max(1, Math.floor(count / 10));
  const chunks: Array<[number, number]> = [];
  for (let lo = 1; lo <= count; lo += CHUNK) chunks.push([lo, Math.min(count, lo + CHUNK - 1)]);
  const big = metadataTemplates(largeMetadata, 100);
  const small = metadataTemplates(smallMetadata, 200);
  let done = 0;
  const started = Date.now();
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      const [lo, hi] = chunk;
      await sql`
        INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                            user_id, notify, favorited, created_at)
        SELECT ${organizationId}, g.i, ${projectId}, cats[c], title, description, icon, tags, metadata, url, user_id, notify, favorited, created_at
        FROM (
          SELECT ${[...CATEGORIES]}::text[] AS cats, ${TITLE_TEMPLATES}::text[] AS titles,
                 ${DESCRIPTION_TEMPLATES}::text[] AS descs, ${ICONS}::text[] AS icons, ${NAMES}::text[] AS names,
                 ${PLANS}::text[] AS plans, ${REGIONS}::text[] AS regions, ${CHANNELS}::text[] AS channels,
                 ${big}::text[] AS big, ${small}::text[] AS small
        ) v,
        LATERAL generate_series(${lo}::int, ${hi}::int) AS g(i),
        LATERAL (
          SELECT hashint4(g.i) & 2147483647 AS h0, hashint4(g.i # 1234567) & 2147483647 AS h1,
                 hashint4(g.i # 7654321) & 2147483647 AS h2, hashint4(g.i # 2468013) & 2147483647 AS h3,
                 hashint4(g.i # 1357911) & 2147483647 AS h4
        ) h,
        LATERAL (
          SELECT 1 + least(19, floor(20 * power((h.h0 % 1000000) / 1000000.0, 1.6)))::int AS c,
                 v.names[1 + h.h1 % array_length(v.names, 1)] AS name,
                 1000 + h.h2 % 99000 AS number
        ) p,
        LATERAL (
          SELECT
            format(v.titles[p.c], p.name, p.number)
              || CASE WHEN g.i % ${rareEvery} = ${Math.floor(rareEvery / 2)} THEN ${` ${RARE_TERM}`} ELSE '' END AS title,
            CASE WHEN h.h3 % 10 <> 0 THEN format(v.descs[1 + h.h3 / 10 % array_length(v.descs, 1)], p.name, p.number) END AS description,
            CASE WHEN h.h4 % 10 < 3 THEN v.icons[p.c] END AS icon,
            CASE WHEN h.h4 / 10 % 2 = 0 THEN ('{"plan":"' || v.plans[1 + h.h2 % 4] || '","region":"' || v.regions[1 + h.h3 % 4]
              || '","channel":"' || v.channels[1 + h.h1 % 4] || '","cohort":"c' || (h.h2 / 7 % 50) || '"}')::json END AS tags,
            CASE WHEN h.h0 / 1000000 % 10 = 0 THEN format(v.big[1 + h.h1 % 16], p.number)::json
                 WHEN h.h0 / 1000000 % 10 < 5 THEN format(v.small[1 + h.h2 % 16], p.number)::json END AS metadata,
            CASE WHEN h.h2 % 10 < 3 THEN 'https://app.example.com/events/' || p.number END AS url,
            CASE WHEN h.h3 / 100 % 10 < 6 THEN 'usr_' || (h.h4 % 50000) END AS user_id,
            h.h4 / 100 % 20 = 0 AS notify,
            h.h1 / 100 % 100 = 42 AS favorited,
            timestamptz 'epoch' + (${startMicros.toString()}::int8 + (g.i - 1) * ${stepMicros.toString()}::int8
              + h.h2 % ${stepMicros.toString()}::int8) * interval '1 microsecond' AS created_at
        ) e`;
      done += hi - lo + 1;
      const seconds = (Date.now() - started) / 1000;
      log(`  ${done.toLocaleString('en-US')} / ${count.toLocaleString('en-US')} events (${Math.round(done / seconds).toLocaleString('en-US')}/s)`);
    }
  };
  await Promise.all([worker(), worker()]);
}

/** The cursor of the row `offset` rows into the project's feed, encoded as the API encodes it. */
export async function cursorAt(sql: Sql, organizationId: string, projectId: string, offset: number): Promise<string> {
  const [row] = await sql<{ id: number; micros: string }[]>`
    SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
    FROM events WHERE organization_id = ${organizationId} AND project_id = ${projectId}
    ORDER BY created_at DESC, id DESC OFFSET ${offset} LIMIT 1`;
  if (!row) throw new Error(`the data set has fewer than ${offset + 1} events`);
  return encodeCursor(row.micros, row.id);
}

/**
 * Takes the bench's own writes (ingest, ceiling, import) out again, so that every run measures
 * the same data set, and vacuums so that the next run does not meet their dead rows.
 */
export async function removeScratch(sql: Sql, scratchOrganizationId: string, log: (m: string) => void): Promise<void> {
  const projects = (await sql<{ id: string }[]>`SELECT id FROM projects WHERE organization_id = ${scratchOrganizationId}`).map((p) => p.id);
  if (projects.length === 0) return;
  const started = Date.now();
  const org = scratchOrganizationId;
  // The server's search indexer may be writing entries of these events: a deadlock is retried.
  const deleted = await retryDeadlock(async () => {
    await sql`DELETE FROM notify_outbox WHERE organization_id = ${org} AND project_id = ANY(${projects}::text[])`;
    const rows = await sql`DELETE FROM events WHERE organization_id = ${org} AND project_id = ANY(${projects}::text[])`;
    await sql`DELETE FROM projects WHERE organization_id = ${org} AND id = ANY(${projects}::text[])`;
    return rows;
  });
  if (deleted.count > 0) await sql.unsafe('VACUUM (ANALYZE) events');
  log(`removed ${deleted.count.toLocaleString('en-US')} bench-written events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function retryDeadlock<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= attempts) throw error;
    }
  }
}

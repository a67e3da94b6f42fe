import type { Db } from '../../db/client.ts';
import type { ImportedEvent } from './planImport.ts';
import { MAX_ID } from '../../lib/idSpace.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';

export interface ExportProjectRow {
  id: string;
  name: string;
}

export interface ExportEventRow {
  category: string;
  title: string;
  description: string | null;
  icon: string | null;
  /** The stored JSON text, written out as is. */
  tags: string | null;
  metadata: string | null;
  url: string | null;
  user_id: string | null;
  notify: boolean;
  favorited: boolean;
  /** Whole Unix seconds as decimal text. */
  created_at: string;
}

export function selectExportProjects(sql: Db, organizationId: string): Promise<ExportProjectRow[]> {
  return sql<ExportProjectRow[]>`
    SELECT id, name FROM projects WHERE organization_id = ${organizationId} AND deleted_at IS NULL ORDER BY created_at, id`;
}

export async function selectCategoryNames(sql: Db, organizationId: string, projectId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    SELECT c.name FROM categories c
    WHERE c.organization_id = ${organizationId} AND c.project_id = ${projectId}
    ORDER BY c.name`;
  return rows.map((row) => row.name);
}

export function selectExportInsights(
  sql: Db,
  organizationId: string,
  projectId: string,
): Promise<Array<{ title: string; value: string; icon: string | null }>> {
  return sql<Array<{ title: string; value: string; icon: string | null }>>`
    SELECT i.title, i.value, i.icon FROM insights i
    WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId}
    ORDER BY i.id`;
}

/** A project's events oldest first, `batch` rows at a time, along the keyset index. */
export function streamExportEvents(
  sql: Db,
  organizationId: string,
  projectId: string,
  batch: number,
): AsyncIterable<ExportEventRow[]> {
  return sql<ExportEventRow[]>`
    SELECT e.category, e.title, e.description, e.icon, e.tags::text AS tags, e.metadata::text AS metadata,
           e.url, e.user_id, e.notify, e.favorited,
           floor(extract(epoch FROM e.created_at))::int8::text AS created_at
    FROM events e
    WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
    ORDER BY e.created_at, e.id`.cursor(batch);
}

/** New projects for the organization; returns the ids actually written. */
export async function insertProjects(
  sql: Db,
  organizationId: string,
  projects: Array<{ id: string; name: string }>,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    INSERT INTO projects (id, organization_id, name)
    SELECT p.id, ${organizationId}, p.name FROM json_to_recordset(${JSON.stringify(projects)}::text::json) AS p(id text, name text)
    RETURNING id`;
  return rows.map((row) => row.id);
}

/** Categories named in the file, including ones no event uses. */
export async function insertCategories(sql: Db, organizationId: string, projectId: string, names: string[]): Promise<void> {
  await sql`
    INSERT INTO categories (organization_id, project_id, name)
    SELECT p.organization_id, p.id, c.name FROM json_array_elements_text(${JSON.stringify(names)}::text::json) AS c(name)
    JOIN projects p ON p.organization_id = ${organizationId} AND p.id = ${projectId} AND p.deleted_at IS NULL
    ON CONFLICT DO NOTHING`;
}

/**
 * Hands the organization `count` consecutive event ids: the first of them, or null when its id
 * space cannot hold that many more (nothing is taken then).
 */
export async function reserveEventIds(sql: Db, organizationId: string, count: number): Promise<number | null> {
  const [row] = await sql<{ first: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${organizationId}, 'event', ${count})
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
    WHERE c.last_id + excluded.last_id <= ${MAX_ID}
    RETURNING (last_id - ${count} + 1)::int AS first`;
  return row?.first ?? null;
}

const json = JSON.stringify;

/**
 * A chunk of a project's checked events as the JSON array an insert reads, under the ids reserved
 * for them from `firstId` on. Written straight into one string: a hundred thousand rows leave no
 * intermediate objects behind for the collector.
 */
export function importedRows(chunk: readonly ImportedEvent[], firstId: number): string {
  const rows: string[] = [];
  for (const [i, d] of chunk.entries()) {
    rows.push(
      `{"id":${firstId + i},"category":${json(d.category)},"title":${json(d.title)},"description":${json(d.description)},` +
        `"icon":${json(d.icon)},"url":${json(d.url)},"user_id":${json(d.userId)},"notify":${d.notify},` +
        `"favorited":${d.favorited},"created_us":${d.createdAtMicros === null ? 'null' : `"${d.createdAtMicros}"`},` +
        `"tags":${d.tags ?? 'null'},"metadata":${d.metadata ?? 'null'}}`,
    );
  }
  return `[${rows.join(',')}]`;
}

/**
 * Imported history, as it was: ids already reserved, favorites kept. A plain insert: the rollups
 * of a new project are counted once at the end (`insertImportedDailyCounts`), not per statement.
 */
export async function insertImportedEvents(sql: Db, organizationId: string, projectId: string, rows: string): Promise<number> {
  const written = await sql`
    INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                        user_id, notify, favorited, created_at)
    SELECT ${organizationId}, t.id, ${projectId}, t.category, t.title, t.description, t.icon, t.tags, t.metadata, t.url,
           t.user_id, t.notify, t.favorited, coalesce(timestamptz 'epoch' + t.created_us * interval '1 microsecond', now())
    FROM json_to_recordset(${rows}::text::json) AS t(
      id int, category text, title text, description text, icon text, tags json, metadata json, url text,
      user_id text, notify bool, favorited bool, created_us int8)`;
  return written.count;
}

/** The per-day counts of a project that was just imported, from its events, in one statement. */
export async function insertImportedDailyCounts(sql: Db, organizationId: string, projectId: string): Promise<void> {
  await sql`
    INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
    SELECT e.organization_id, e.project_id, e.created_at::date, e.category, count(*)
    FROM events e WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
    GROUP BY 1, 2, 3, 4`;
}

/**
 * The application users of a project that was just imported, from its events, in one statement.
 * A user_id longer than MAX_USER_ID makes no user, as on the ingest path.
 */
export async function insertImportedUsers(sql: Db, organizationId: string, projectId: string): Promise<void> {
  await sql`
    INSERT INTO app_users (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
    SELECT e.organization_id, e.project_id, e.user_id, count(*), min(e.created_at), max(e.created_at)
    FROM events e
    WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
      AND e.user_id IS NOT NULL AND char_length(e.user_id) <= ${MAX_USER_ID}
    GROUP BY 1, 2, 3`;
}

import type { Db, TransactionSql } from '../../db/client.ts';
import { endCopyIn } from '../../db/driverQuirks.ts';
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

/**
 * New projects for the organization, or the name of one the import wrote with its first events;
 * returns the ids written.
 */
export async function insertProjects(
  sql: Db,
  organizationId: string,
  projects: Array<{ id: string; name: string }>,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    INSERT INTO projects (id, organization_id, name)
    SELECT p.id, ${organizationId}, p.name FROM json_to_recordset(${JSON.stringify(projects)}::text::json) AS p(id text, name text)
    ON CONFLICT (organization_id, id) DO UPDATE SET name = excluded.name
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
 * The organization's last event id, its counter row locked until the transaction ends: the
 * import hands out the ids after it itself (importWriter.ts) and sets the counter once.
 */
export async function lockEventCounter(sql: Db, organizationId: string): Promise<number> {
  const [row] = await sql<{ last_id: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${organizationId}, 'event', 0)
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id
    RETURNING last_id::int AS last_id`;
  return row!.last_id;
}

/** Moves the organization's event counter to `lastId`, the last id the import handed out. */
export async function setEventCounter(sql: Db, organizationId: string, lastId: number): Promise<void> {
  await sql`UPDATE id_counters SET last_id = ${lastId} WHERE organization_id = ${organizationId} AND kind = 'event'`;
}

/**
 * Imported history, as it was: favorites kept, under the ids importedRows gave them. COPY, not
 * INSERT: no statement to plan and no JSON to take apart (decision 093). A plain insert: the
 * rollups of a new project are counted once at the end (`insertImportedDailyCounts`).
 *
 * Resolves once the rows are sent, with `done`, which resolves with their count once PostgreSQL
 * has taken them all: the caller makes the next chunk meanwhile.
 */
export async function sendImportedEvents(tx: TransactionSql, rows: { text: string; count: number }): Promise<{ done: Promise<number> }> {
  const copy = await tx.unsafe(`COPY events (id, organization_id, project_id, ${IMPORTED_COLUMNS}) FROM STDIN`).writable();
  // Without a listener, a COPY ended by an error would take the process down with it.
  copy.on('error', () => {});
  copy.write(rows.text);
  const { done } = await endCopyIn(tx, copy);
  const count = done.then(() => rows.count);
  count.catch(() => {}); // awaited by the caller
  return { done: count };
}

const IMPORTED_COLUMNS = 'category, title, description, icon, tags, metadata, url, user_id, notify, favorited, created_at';

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

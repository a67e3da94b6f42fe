import type { Db } from '../../db/client.ts';
import { MAX_ID } from '../../lib/idSpace.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import type { EventDraft } from './validateEventInput.ts';

/**
 * The text search matches: what the search indexer stores as `event_search.document`
 * (migrations/090_search_table.sql), and what search scans above the indexer's watermark.
 */
export const searchDocument = (sql: Db) =>
  sql`(title || E'\\x1f' || coalesce(description, '') || E'\\x1f' || coalesce(tags::text, ''))`;

export interface EventRow {
  id: number;
  projectId: string;
  category: string;
  title: string;
  description: string | null;
  icon: string | null;
  tags: Record<string, unknown> | null;
  metadata: unknown;
  url: string | null;
  user_id: string | null;
  notify: boolean;
  favorited: boolean;
  /** Microseconds since the epoch, as decimal text: a Date would lose them. */
  createdMicros: string;
}

export const eventColumns = (sql: Db, alias = 'e') => sql`
  ${sql(alias)}.id, ${sql(alias)}.project_id AS "projectId", ${sql(alias)}.category, ${sql(alias)}.title,
  ${sql(alias)}.description, ${sql(alias)}.icon, ${sql(alias)}.tags, ${sql(alias)}.metadata, ${sql(alias)}.url,
  ${sql(alias)}.user_id, ${sql(alias)}.notify, ${sql(alias)}.favorited,
  (extract(epoch FROM ${sql(alias)}.created_at) * 1000000)::bigint::text AS "createdMicros"`;

/**
 * The batch as one JSON array for json_to_recordset. Tags and metadata are spliced in as the
 * validated JSON text itself, so the stored `json` keeps exactly that text. (Array parameters
 * are avoided: the driver turns a null inside a text[] into the string "NULL".)
 */
function batchDocument(drafts: Array<EventDraft & { organizationId: string }>): string {
  const rows = drafts.map((d, ord) => {
    const scalars = JSON.stringify({
      ord,
      organization_id: d.organizationId,
      project_id: d.projectId,
      category: d.category,
      title: d.title,
      description: d.description,
      icon: d.icon,
      url: d.url,
      user_id: d.userId,
      notify: d.notify,
      created_us: d.createdAtMicros?.toString() ?? null,
    });
    return `${scalars.slice(0, -1)},"tags":${d.tags ?? 'null'},"metadata":${d.metadata ?? 'null'}}`;
  });
  return `[${rows.join(',')}]`;
}

export interface InsertedEvent {
  /** Index of the draft in the batch. */
  ord: number;
  id: number;
  createdMicros: string;
}

/** Why a draft of a batch was not written: its organization's monthly cap, or its id space. */
export type Refusal = 'cap' | 'ids';

export interface BatchResult {
  inserted: InsertedEvent[];
  /** Drafts (by index) refused; a draft in neither list names a project that is not its organization's. */
  refused: Array<{ ord: number; reason: Refusal }>;
}

/**
 * How a write counts against the organization's monthly event cap (organization_usage, per UTC
 * month): `count` (the API: counted, never refused), `capped` (incoming hooks: an organization's
 * drafts are written only if all of them fit under its cap), `none` (import: a restore, not new
 * events).
 */
export type UsageMode = 'count' | 'capped' | 'none';

/**
 * Writes a batch of events in one statement: the events, their new categories, the per-day
 * counts charts read, the organization's monthly usage, and (when `fanOut`) the outbox rows of
 * notify events. Each organization's new ids come from its `event` counter row, taken in the
 * same statement, so ids follow commit order within an organization and other organizations
 * never wait for it. An organization's drafts are refused together when they do not fit under
 * its cap (`capped`) or in its id space; a draft whose project is not its organization's is
 * skipped without a trace.
 */
export async function insertEvents(
  sql: Db,
  drafts: Array<EventDraft & { organizationId: string }>,
  { fanOut = true, usage = 'count' }: { fanOut?: boolean; usage?: UsageMode } = {},
): Promise<BatchResult> {
  const rows = await sql<{ ord: number; id: number | null; createdMicros: string | null; refused: Refusal | null }[]>`
    WITH input AS (
      SELECT * FROM json_to_recordset(${batchDocument(drafts)}::text::json) AS t(
        ord int, organization_id text, project_id text, category text, title text, description text, icon text,
        tags json, metadata json, url text, user_id text, notify bool, created_us int8)
    ),
    -- The cap and the id counter as this statement's snapshot sees them: the cap travels into the
    -- usage row (no subquery on another table in the upsert), and an organization whose id space
    -- is visibly used up is not counted as using its cap.
    valid AS (
      SELECT i.*, coalesce(o.monthly_event_cap, ${MAX_ID}) AS cap,
             count(*) OVER (PARTITION BY i.organization_id) AS wanted, coalesce(c.last_id, 0) AS last_seen
      FROM input i
      JOIN projects p ON p.organization_id = i.organization_id AND p.id = i.project_id AND p.deleted_at IS NULL
      -- Joined on the project's organization_id, not the input's: a distributed engine joins
      -- colocated tables only on their distribution column.
      JOIN organizations o ON o.id = p.organization_id
      LEFT JOIN id_counters c ON c.organization_id = p.organization_id AND c.kind = 'event'
    ),
    -- Runs before any other write (the counters read its result), so every writer locks an
    -- organization's usage row first, its counter next and rollup rows last: no deadlock.
    monthly_usage AS (
      INSERT INTO organization_usage AS u (organization_id, month, events, cap)
      SELECT v.organization_id, date_trunc('month', now() AT TIME ZONE 'UTC')::date, count(*)::int, min(v.cap)
      FROM valid v WHERE ${usage !== 'none'} AND v.last_seen + v.wanted <= ${MAX_ID}
      GROUP BY v.organization_id
      ${usage === 'capped' ? sql`HAVING count(*) <= min(v.cap)` : sql``}
      ORDER BY 1
      ON CONFLICT (organization_id, month) DO UPDATE SET events = u.events + excluded.events, cap = excluded.cap
      ${usage === 'capped' ? sql`WHERE u.events::int8 + excluded.events <= excluded.cap` : sql``}
      RETURNING organization_id
    ),
    admitted AS (
      SELECT v.* FROM valid v
      WHERE ${usage === 'none'} OR v.organization_id IN (SELECT organization_id FROM monthly_usage)
    ),
    counters AS (
      INSERT INTO id_counters AS c (organization_id, kind, last_id)
      SELECT organization_id, 'event', count(*) FROM admitted GROUP BY 1 ORDER BY 1
      ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
      WHERE c.last_id + excluded.last_id <= ${MAX_ID}
      RETURNING organization_id, last_id
    ),
    owned AS MATERIALIZED (
      -- The organization's n new ids are last_id-n+1 .. last_id, in batch order.
      SELECT (c.last_id - count(*) OVER (PARTITION BY a.organization_id)
                        + row_number() OVER (PARTITION BY a.organization_id ORDER BY a.ord))::int AS id,
             a.*, coalesce(timestamptz 'epoch' + a.created_us * interval '1 microsecond', now()) AS created_at
      FROM admitted a JOIN counters c ON c.organization_id = a.organization_id
    ),
    new_events AS (
      INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                          user_id, notify, created_at)
      SELECT organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
             user_id, notify, created_at
      FROM owned ORDER BY organization_id, id
    ),
    new_categories AS (
      INSERT INTO categories (organization_id, project_id, name)
      SELECT DISTINCT organization_id, project_id, category FROM owned ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
    ),
    day_counts AS (
      -- Sorted so concurrent batches lock rollup rows in one order and cannot deadlock.
      INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
      SELECT organization_id, project_id, created_at::date, category, count(*) FROM owned
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (organization_id, project_id, day, category) DO UPDATE SET count = event_daily_counts.count + excluded.count
    ),
    app_users_seen AS (
      -- The application's users (src/features/profiles/): counts and first/last event per batch
      -- and user, sorted like the rollups so that concurrent batches cannot deadlock.
      INSERT INTO app_users AS u (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
      SELECT organization_id, project_id, user_id, count(*), min(created_at), max(created_at) FROM owned
      WHERE user_id IS NOT NULL AND char_length(user_id) <= ${MAX_USER_ID}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, project_id, user_id) DO UPDATE SET
        event_count = u.event_count + excluded.event_count,
        first_event_at = least(u.first_event_at, excluded.first_event_at),
        last_event_at = greatest(u.last_event_at, excluded.last_event_at)
    ),
    outbox AS (
      INSERT INTO notify_outbox (organization_id, event_id, project_id)
      SELECT organization_id, id, project_id FROM owned WHERE notify AND ${fanOut}
    )
    SELECT ord, id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS "createdMicros", NULL::text AS refused
    FROM owned
    UNION ALL
    SELECT v.ord, NULL, NULL,
           CASE WHEN v.last_seen + v.wanted > ${MAX_ID} OR v.organization_id IN (SELECT organization_id FROM admitted)
                THEN 'ids' ELSE 'cap' END
    FROM valid v WHERE v.organization_id NOT IN (SELECT organization_id FROM counters)`;
  const result: BatchResult = { inserted: [], refused: [] };
  for (const row of rows) {
    if (row.refused) result.refused.push({ ord: row.ord, reason: row.refused });
    else result.inserted.push({ ord: row.ord, id: row.id!, createdMicros: row.createdMicros! });
  }
  return result;
}

/**
 * Moves the tags index's pending entries into the index proper, off the request path. Without it
 * the insert that finds the pending list full (gin_pending_list_limit, 4 MB) does the merge
 * itself, and its whole batch waits tens of milliseconds. Null when there is no such index.
 */
export async function cleanTagsPendingList(sql: Db): Promise<number | null> {
  const [row] = await sql<{ pages: string | null }[]>`
    SELECT CASE WHEN to_regclass('events_tags') IS NOT NULL
                THEN gin_clean_pending_list(to_regclass('events_tags'))::text END AS pages`;
  return row?.pages == null ? null : Number(row.pages);
}

/** Flips favorited on the caller's event; undefined when there is no such event for them. */
export async function toggleFavorite(
  sql: Db,
  organizationId: string,
  eventId: number,
): Promise<{ id: number; favorited: boolean; projectId: string } | undefined> {
  const [row] = await sql<{ id: number; favorited: boolean; projectId: string }[]>`
    UPDATE events e SET favorited = NOT e.favorited
    WHERE e.organization_id = ${organizationId} AND e.id = ${eventId}
      AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = e.organization_id AND p.id = e.project_id AND p.deleted_at IS NOT NULL)
    RETURNING e.id, e.favorited, e.project_id AS "projectId"`;
  return row;
}

/** Every category of the project with its all-time count, read from the per-day counts. */
export function categoryCounts(
  sql: Db,
  organizationId: string,
  projectId: string,
): Promise<Array<{ name: string; count: number }>> {
  return sql<Array<{ name: string; count: number }>>`
    SELECT c.name, coalesce(sum(d.count), 0)::int AS count
    FROM categories c
    LEFT JOIN event_daily_counts d
      ON d.organization_id = c.organization_id AND d.project_id = c.project_id AND d.category = c.name
    WHERE c.organization_id = ${organizationId} AND c.project_id = ${projectId}
    GROUP BY c.name ORDER BY c.name`;
}

/** One of the organization's events, unless its project is deleted; undefined otherwise. */
export async function findEvent(sql: Db, organizationId: string, eventId: number): Promise<EventRow | undefined> {
  const [row] = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e
    WHERE e.organization_id = ${organizationId} AND e.id = ${eventId}
      AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = e.organization_id AND p.id = e.project_id AND p.deleted_at IS NOT NULL)`;
  return row;
}

/** The project an event of the organization belongs to (a key's project scope, http/routeScope.ts). */
export async function findEventProject(sql: Db, organizationId: string, eventId: number): Promise<string | undefined> {
  const [row] = await sql<{ projectId: string }[]>`
    SELECT project_id AS "projectId" FROM events WHERE organization_id = ${organizationId} AND id = ${eventId}`;
  return row?.projectId;
}

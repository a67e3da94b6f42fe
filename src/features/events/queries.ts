import type { KnownCategories } from './knownCategories.ts';
import type { Db } from '../../db/client.ts';
import { MAX_ID } from '../../lib/idSpace.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import { codePointLength } from '../../lib/text.ts';
import type { EventDraft } from './validateEventInput.ts';

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
 * The batch as one JSON array for json_to_recordset, `ord` being each draft's place in it and
 * `created_us` its time (null: the statement's clock). Tags and metadata are spliced in as the
 * validated JSON text itself, so the stored `json` keeps exactly that text.
 * (Array parameters are avoided: the driver turns a null inside a text[] into the string "NULL".)
 */
function eventsDocument(drafts: EventDraft[]): string {
  const rows = drafts.map((d, ord) => {
    const scalars = JSON.stringify({
      ord,
      project_id: d.projectId,
      category: d.category,
      title: d.title,
      description: d.description,
      icon: d.icon,
      url: d.url,
      user_id: d.userId,
      notify: d.notify,
      created_us: d.createdAtMicros?.toString() ?? null,
      alert_id: d.alertId ?? null,
    });
    return `${scalars.slice(0, -1)},"tags":${d.tags ?? 'null'},"metadata":${d.metadata ?? 'null'}}`;
  });
  return `[${rows.join(',')}]`;
}

/** Whether the event's user id makes an application user: at most MAX_USER_ID characters (code points, as char_length counts). */
const countsAsUser = (userId: string | null): userId is string => userId !== null && codePointLength(userId) <= MAX_USER_ID;

/**
 * What the rollups and the outbox need of each event: a smaller document than the events' own,
 * since several of the function's statements parse it.
 */
function rollupDocument(drafts: EventDraft[]): string {
  return JSON.stringify(
    drafts.map((d, ord) => ({
      ord,
      project_id: d.projectId,
      category: d.category,
      user_id: countsAsUser(d.userId) ? d.userId : null,
      notify: d.notify,
      created_us: d.createdAtMicros?.toString() ?? null,
    })),
  );
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
 * month): `count` (the API: counted, never refused), `capped` (incoming hooks: the drafts are
 * written only if all of them fit under the cap), `none` (import: a restore, not new events).
 */
export type UsageMode = 'count' | 'capped' | 'none';

interface InsertOptions {
  /** The chart time zone: the per-day counts are days in it. */
  timeZone: string;
  /** Whether notify events get their outbox rows (false for an import). */
  fanOut?: boolean;
  usage?: UsageMode;
  /** Categories known to exist: a batch with no other skips their INSERT. A nested call (a savepoint) adds none. */
  knownCategories?: KnownCategories;
}

/** The SQLSTATEs ingest_events raises to refuse a batch (migrations/125_ingest_function.sql). */
const REFUSALS: Record<string, Refusal> = { EL001: 'ids', EL002: 'cap' };

function refusalOf(error: unknown): Refusal | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? REFUSALS[code] : undefined;
}

/**
 * Writes one organization's batch of events in one transaction: the events, their new
 * categories, the per-day counts charts read (by tag value too, where the organization charts a
 * tag key), its application users, the organization's monthly usage, and (when `fanOut`) the
 * outbox rows of notify events. The new ids come from the organization's `event` counter row,
 * moved in the same transaction, so ids follow commit order within an organization and other
 * organizations never wait for it. The drafts are refused together when they do not fit under the
 * cap (`capped`) or in the id space; a draft whose project is not the organization's is skipped
 * without a trace.
 *
 * All of it is one call of the database function ingest_events (migrations/125_ingest_function.sql):
 * one round trip, and in autocommit the call is the transaction, so the counter row is locked only
 * while the database works (decision 165). Inside a caller's transaction (an import, an alert, a
 * test) it runs in a savepoint, so a refusal rolls back only its own writes.
 */
export async function insertEvents(sql: Db, organizationId: string, drafts: EventDraft[], options: InsertOptions): Promise<BatchResult> {
  const { timeZone, fanOut = true, usage = 'count', knownCategories } = options;
  const org = organizationId;
  const newCategories = knownCategories ? drafts.some((d) => !knownCategories.has(org, d.projectId, d.category)) : true;
  const call = (db: Db) => db<{ result: { firstId: number; nowMicros: string; ords: number[] } | null }[]>`
    SELECT ingest_events(${org}, ${eventsDocument(drafts)}, ${rollupDocument(drafts)}, ${usage},
                         ${fanOut && drafts.some((d) => d.notify)}, ${newCategories}, ${drafts.some((d) => countsAsUser(d.userId))},
                         ${timeZone}, ${MAX_ID}) AS result`;
  let rows: Awaited<ReturnType<typeof call>>;
  try {
    rows = 'savepoint' in sql ? await sql.savepoint((tx) => call(tx)) : await call(sql);
  } catch (error) {
    const reason = refusalOf(error);
    if (!reason) throw error;
    return { inserted: [], refused: [...drafts.keys()].map((ord) => ({ ord, reason })) };
  }
  const result = rows[0]?.result;
  if (!result) return { inserted: [], refused: [] };
  const { firstId, nowMicros, ords } = result;
  const written = ords.map((ord) => drafts[ord]!);
  if (knownCategories && !('savepoint' in sql))
    knownCategories.remember(
      org,
      written.map((d) => ({ projectId: d.projectId, category: d.category })),
    );
  return {
    inserted: ords.map((ord, i) => ({ ord, id: firstId + i, createdMicros: drafts[ord]!.createdAtMicros?.toString() ?? nowMicros })),
    refused: [],
  };
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

/** One of the organization's events, unless its project is deleted; undefined otherwise. */
export async function findEvent(sql: Db, organizationId: string, eventId: number): Promise<EventRow | undefined> {
  const [row] = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e
    WHERE e.organization_id = ${organizationId} AND e.id = ${eventId}
      AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = e.organization_id AND p.id = e.project_id AND p.deleted_at IS NOT NULL)`;
  return row;
}

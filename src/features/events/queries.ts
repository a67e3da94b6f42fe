import type { KnownCategories } from './knownCategories.ts';
import type { Db, TransactionSql } from '../../db/client.ts';
import { MAX_ID } from '../../lib/idSpace.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import { codePointLength } from '../../lib/text.ts';
import { countTagValues } from './tagRollupWrites.ts';
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
 * The batch as one JSON array for json_to_recordset, `ord` being each draft's place in it and
 * `created_us` its time (the statement's clock for a draft without one). Tags and metadata are
 * spliced in as the validated JSON text itself, so the stored `json` keeps exactly that text.
 * (Array parameters are avoided: the driver turns a null inside a text[] into the string "NULL".)
 */
function eventsDocument(drafts: EventDraft[], nowMicros: string): string {
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
      created_us: d.createdAtMicros?.toString() ?? nowMicros,
      alert_id: d.alertId ?? null,
    });
    return `${scalars.slice(0, -1)},"tags":${d.tags ?? 'null'},"metadata":${d.metadata ?? 'null'}}`;
  });
  return `[${rows.join(',')}]`;
}

/** Whether the event's user id makes an application user: at most MAX_USER_ID characters (code points, as char_length counts). */
const countsAsUser = (userId: string | null): userId is string => userId !== null && codePointLength(userId) <= MAX_USER_ID;

/** What the rollups need of each event: a smaller document than the events' own. */
function rollupDocument(drafts: EventDraft[], nowMicros: string): string {
  return JSON.stringify(
    drafts.map((d) => ({
      project_id: d.projectId,
      category: d.category,
      user_id: countsAsUser(d.userId) ? d.userId : null,
      created_us: d.createdAtMicros?.toString() ?? nowMicros,
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

/** Thrown inside the transaction to roll it back when the cap or the id space refuses the batch. */
class Refused extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

/**
 * Writes one organization's batch of events in one transaction: the events, their new
 * categories, the per-day counts charts read, the organization's monthly usage, and (when
 * `fanOut`) the outbox rows of notify events. The new ids come from the organization's `event`
 * counter row, moved in the same transaction, so ids follow commit order within an organization
 * and other organizations never wait for it. The drafts are refused together when they do not
 * fit under the cap (`capped`) or in the id space; a draft whose project is not the
 * organization's is skipped without a trace.
 *
 * Every statement names the organization as a parameter and reads its input through a join with
 * the organization's projects, whose organization_id is the one written: so a distributed engine
 * routes each one, writes included, to the organization's shard (an INSERT in a CTE is never
 * routed, nor an INSERT ... SELECT whose distribution column is a constant: docs/scaling.md;
 * test/storage/citusPlans.test.ts checks the plans). The statements of a step are sent together,
 * so the transaction takes three round trips whatever the batch holds.
 */
export async function insertEvents(sql: Db, organizationId: string, drafts: EventDraft[], options: InsertOptions): Promise<BatchResult> {
  const { timeZone, fanOut = true, usage = 'count', knownCategories } = options;
  const org = organizationId;
  let written: EventDraft[] = [];
  try {
    const result = await inTransaction(sql, async (tx) => {
      const [tenant] = await tx<{ cap: string; lastSeen: number; nowMicros: string; projects: string[] }[]>`
        SELECT coalesce(o.monthly_event_cap, ${MAX_ID})::text AS cap,
               coalesce((SELECT c.last_id FROM id_counters c WHERE c.organization_id = ${org} AND c.kind = 'event'), 0)::int AS "lastSeen",
               (extract(epoch FROM now()) * 1000000)::int8::text AS "nowMicros",
               array(SELECT p.id FROM projects p WHERE p.organization_id = ${org} AND p.deleted_at IS NULL
                       AND p.id IN ${tx([...new Set(drafts.map((d) => d.projectId))])}) AS projects
        FROM organizations o WHERE o.id = ${org}`;
      if (!tenant) return { inserted: [], refused: [] };
      const live = new Set(tenant.projects);
      const valid = [...drafts.keys()].filter((ord) => live.has(drafts[ord]!.projectId));
      if (valid.length === 0) return { inserted: [], refused: [] };
      const wanted = valid.length;
      if (tenant.lastSeen + wanted > MAX_ID) throw new Refused('ids');
      const month = new Date(Number(BigInt(tenant.nowMicros) / 1000n)).toISOString().slice(0, 7) + '-01';
      if (usage === 'capped' && wanted > Number(tenant.cap)) throw new Refused('cap');
      const [admitted, counter] = await Promise.all([
        usage === 'none'
          ? [{ ok: true }]
          : tx`
            INSERT INTO organization_usage AS u (organization_id, month, events, cap)
            VALUES (${org}, ${month}::date, ${wanted}, ${tenant.cap}::int8)
            ON CONFLICT (organization_id, month) DO UPDATE SET events = u.events + excluded.events, cap = excluded.cap
            ${usage === 'capped' ? tx`WHERE u.events::int8 + excluded.events <= excluded.cap` : tx``}
            RETURNING true AS ok`,
        tx<{ lastId: number; rollsUpTags: boolean }[]>`
          INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${org}, 'event', ${wanted})
          ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
          WHERE c.last_id + excluded.last_id <= ${MAX_ID}
          RETURNING last_id::int AS "lastId", rolls_up_tags AS "rollsUpTags"`,
      ]);
      if (admitted.length === 0) throw new Refused('cap');
      if (!counter[0]) throw new Refused('ids');
      const firstId = counter[0].lastId - wanted + 1;
      written = valid.map((ord) => drafts[ord]!);
      const newCategories = knownCategories ? written.some((d) => !knownCategories.has(org, d.projectId, d.category)) : true;
      await writeRows(tx, org, written, firstId, tenant.nowMicros, { timeZone, fanOut, newCategories, rollsUpTags: counter[0].rollsUpTags });
      return {
        inserted: valid.map((ord, i) => ({ ord, id: firstId + i, createdMicros: drafts[ord]!.createdAtMicros?.toString() ?? tenant.nowMicros })),
        refused: [],
      };
    });
    if (knownCategories && !('savepoint' in sql)) knownCategories.remember(org, written.map((d) => ({ projectId: d.projectId, category: d.category })));
    return result;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { inserted: [], refused: [...drafts.keys()].map((ord) => ({ ord, reason: error.reason })) };
  }
}

/** A transaction of its own, or a savepoint in the caller's (a test's, an import's). */
function inTransaction<T>(sql: Db, work: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return 'savepoint' in sql ? (sql.savepoint(work) as Promise<T>) : (sql.begin(work) as Promise<T>);
}

/**
 * The rows of an admitted batch, ids firstId.. in batch order: events, categories, day counts,
 * application users and outbox, each statement a join of its document with the organization's
 * projects. Rollup rows are written sorted, so concurrent batches lock them in one order.
 */
async function writeRows(
  tx: TransactionSql,
  org: string,
  drafts: EventDraft[],
  firstId: number,
  nowMicros: string,
  { timeZone, fanOut, newCategories, rollsUpTags }: { timeZone: string; fanOut: boolean; newCategories: boolean; rollsUpTags: boolean },
): Promise<void> {
  const events = eventsDocument(drafts, nowMicros);
  const rollup = rollupDocument(drafts, nowMicros);
  const rollupInput = tx`
    json_to_recordset(${rollup}::text::json) AS t(project_id text, category text, user_id text, created_us int8)
    JOIN projects p ON p.organization_id = ${org} AND p.id = t.project_id`;
  const createdAt = tx`(timestamptz 'epoch' + t.created_us * interval '1 microsecond')`;
  const statements = [
    tx`
      INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                          user_id, notify, created_at, alert_id)
      SELECT p.organization_id, ${firstId} + t.ord, t.project_id, t.category, t.title, t.description, t.icon, t.tags, t.metadata, t.url,
             t.user_id, t.notify, ${createdAt}, t.alert_id
      FROM json_to_recordset(${events}::text::json) AS t(
        ord int, project_id text, category text, title text, description text, icon text,
        tags json, metadata json, url text, user_id text, notify bool, created_us int8, alert_id text)
      JOIN projects p ON p.organization_id = ${org} AND p.id = t.project_id
      ORDER BY t.ord`,
    // Most batches hold only categories the process has seen committed (knownCategories.ts).
    ...(newCategories
      ? [
          tx`
            INSERT INTO categories (organization_id, project_id, name)
            SELECT DISTINCT p.organization_id, t.project_id, t.category FROM ${rollupInput} ORDER BY 2, 3
            ON CONFLICT DO NOTHING`,
        ]
      : []),
    tx`
      INSERT INTO event_daily_counts AS d (organization_id, project_id, day, category, count)
      SELECT p.organization_id, t.project_id, (${createdAt} AT TIME ZONE ${timeZone})::date, t.category, count(*) FROM ${rollupInput}
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (organization_id, project_id, day, category) DO UPDATE SET count = d.count + excluded.count`,
  ];
  if (drafts.some((d) => countsAsUser(d.userId))) {
    // The application's users (src/features/profiles/): counts and first/last event per batch and user.
    statements.push(tx`
      INSERT INTO app_users AS u (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
      SELECT p.organization_id, t.project_id, t.user_id, count(*), min(${createdAt}), max(${createdAt}) FROM ${rollupInput}
      WHERE t.user_id IS NOT NULL
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, project_id, user_id) DO UPDATE SET
        event_count = u.event_count + excluded.event_count,
        first_event_at = least(u.first_event_at, excluded.first_event_at),
        last_event_at = greatest(u.last_event_at, excluded.last_event_at)`);
  }
  const notified = fanOut ? drafts.flatMap((d, ord) => (d.notify ? [{ ord, projectId: d.projectId }] : [])) : [];
  if (notified.length > 0) {
    statements.push(tx`
      INSERT INTO notify_outbox (organization_id, event_id, project_id)
      SELECT p.organization_id, ${firstId} + t.ord, t.project_id
      FROM json_to_recordset(${JSON.stringify(notified.map(({ ord, projectId }) => ({ ord, project_id: projectId })))}::text::json)
             AS t(ord int, project_id text)
      JOIN projects p ON p.organization_id = ${org} AND p.id = t.project_id`);
  }
  if (rollsUpTags) statements.push(countTagValues(tx, org, drafts, nowMicros, timeZone));
  await Promise.all(statements);
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

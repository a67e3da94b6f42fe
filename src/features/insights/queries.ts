import { type Db, withTransaction } from '../../db/client.ts';
import { MAX_ID } from '../../lib/idSpace.ts';
import type { InsightDraft } from './validateInsightInput.ts';

interface InsightRow {
  id: number;
  projectId: string;
  title: string;
  value: string;
  icon: string | null;
  updatedAt: Date;
}

/** What an upsert did; `exhausted` when a new insight needed an id and the organization has none left. */
type UpsertOutcome = { id: number; projectId: string; outcome: 'updated' | 'inserted' } | { outcome: 'exhausted' };

/**
 * Creates or updates the insight (project, title) of one of the organization's projects. An
 * update takes no id; only a new insight draws one from the organization's `insight` counter. The
 * icon changes only when supplied. Undefined when the project is not theirs. Each statement names
 * the organization, so a distributed engine routes it to the organization's shard (an INSERT in a
 * CTE is never routed there: docs/scaling.md).
 */
export async function upsertInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: InsightDraft,
): Promise<UpsertOutcome | undefined> {
  const iconSupplied = draft.icon !== undefined;
  return withTransaction(sql, async (tx) => {
    const [updated] = await tx<{ id: number; projectId: string }[]>`
      UPDATE insights i SET
        value = ${draft.value},
        icon = CASE WHEN ${iconSupplied}::bool THEN ${draft.icon ?? null}::text ELSE i.icon END,
        updated_at = now()
      WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId} AND i.title = ${draft.title}
        AND ${liveProject(tx, organizationId, projectId)}
      RETURNING i.id, i.project_id AS "projectId"`;
    if (updated) return { ...updated, outcome: 'updated' as const };
    const id = await drawInsightId(tx, organizationId, projectId);
    if (id === undefined || id === 'exhausted') return id && { outcome: id };
    // A concurrent create of the same title wins the unique key; this one then updates it (its
    // drawn id stays unused: ids may have gaps).
    const [inserted] = await tx<{ id: number; projectId: string }[]>`
      INSERT INTO insights (organization_id, id, project_id, title, value, icon)
      VALUES (${organizationId}, ${id}, ${projectId}, ${draft.title}, ${draft.value}, ${draft.icon ?? null}::text)
      ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
        value = excluded.value,
        icon = CASE WHEN ${iconSupplied}::bool THEN excluded.icon ELSE insights.icon END,
        updated_at = excluded.updated_at
      RETURNING id, project_id AS "projectId"`;
    return { ...inserted!, outcome: 'inserted' as const };
  });
}

/** That the project is one of the organization's live ones, as a condition of a statement. */
const liveProject = (sql: Db, organizationId: string, projectId: string) => sql`
  EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${projectId} AND p.deleted_at IS NULL)`;

/** A new insight's id; undefined when the project is not the organization's, `exhausted` when no id is left. */
async function drawInsightId(tx: Db, organizationId: string, projectId: string): Promise<number | 'exhausted' | undefined> {
  const [project] = await tx`SELECT 1 AS live WHERE ${liveProject(tx, organizationId, projectId)}`;
  if (!project) return undefined;
  const [counter] = await tx<{ lastId: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (${organizationId}, 'insight', 1)
    ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + 1 WHERE c.last_id < ${MAX_ID}
    RETURNING last_id::int AS "lastId"`;
  return counter ? counter.lastId : 'exhausted';
}

/**
 * Import: writes insights into a project the organization owns, in one statement, drawing one id
 * per draft. Titles must be distinct within the call. Returns the ids actually written, or
 * `exhausted` when the organization's insight ids do not suffice (then nothing is written).
 */
export async function insertInsights(
  sql: Db,
  organizationId: string,
  projectId: string,
  drafts: InsightDraft[],
): Promise<number[] | 'exhausted'> {
  const document = JSON.stringify(drafts.map((d, ord) => ({ ord, title: d.title, value: d.value, icon: d.icon ?? null })));
  const rows = await sql<{ id: number | null }[]>`
    WITH input AS (
      SELECT i.* FROM json_to_recordset(${document}::text::json) AS i(ord int, title text, value text, icon text)
      WHERE EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${projectId} AND p.deleted_at IS NULL)
    ), counter AS (
      INSERT INTO id_counters AS c (organization_id, kind, last_id)
      SELECT ${organizationId}, 'insight', count(*) FROM input HAVING count(*) > 0
      ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
      WHERE c.last_id + excluded.last_id <= ${MAX_ID}
      RETURNING last_id
    ), written AS (
      INSERT INTO insights (organization_id, id, project_id, title, value, icon)
      SELECT ${organizationId}, (counter.last_id - count(*) OVER () + row_number() OVER (ORDER BY i.ord))::int,
             ${projectId}, i.title, i.value, i.icon
      FROM input i CROSS JOIN counter
      ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
        value = excluded.value, icon = excluded.icon, updated_at = excluded.updated_at
      RETURNING id
    )
    SELECT id FROM written
    UNION ALL (SELECT NULL FROM input WHERE NOT EXISTS (SELECT 1 FROM counter) LIMIT 1)`;
  if (rows.some((row) => row.id === null)) return 'exhausted';
  return rows.map((row) => row.id!);
}

export function listInsights(sql: Db, organizationId: string, projectId: string): Promise<InsightRow[]> {
  return sql<InsightRow[]>`
    SELECT i.id, i.project_id AS "projectId", i.title, i.value, i.icon, i.updated_at AS "updatedAt"
    FROM insights i
    WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId}
    ORDER BY i.id`;
}

/** Deletes the caller's insight; undefined when there is no such insight for them. */
export async function deleteInsight(
  sql: Db,
  organizationId: string,
  insightId: number,
): Promise<{ id: number; projectId: string } | undefined> {
  const [row] = await sql<{ id: number; projectId: string }[]>`
    DELETE FROM insights i
    WHERE i.organization_id = ${organizationId} AND i.id = ${insightId}
    RETURNING i.id, i.project_id AS "projectId"`;
  return row;
}

/** What an increment did: the counter's new text, or `exhausted` when a new insight found no id left. */
type IncrementOutcome = { id: number; projectId: string; value: string } | { outcome: 'exhausted' };

/** Raised by eventlog_insight_increment (migration 052) when the old value or the sum is not a finite number. */
export const NOT_A_NUMBER = 'EVI01';

/**
 * Adds `increment` to the insight (project, title), creating it from 0: the
 * arithmetic happens in the row's UPDATE (migration 052 gives the database JavaScript's number
 * rules), so concurrent increments queue on the row lock and none is lost. An update takes no
 * id. Undefined when the project is not the organization's. Throws NOT_A_NUMBER (nothing written).
 */
export async function incrementInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: { title: string; increment: number; icon: string | null | undefined },
): Promise<IncrementOutcome | undefined> {
  const iconSupplied = draft.icon !== undefined;
  const increment = String(draft.increment);
  return withTransaction(sql, async (tx) => {
    const [updated] = await tx<{ id: number; projectId: string; value: string }[]>`
      UPDATE insights i SET
        value = eventlog_insight_increment(i.value, ${increment}::text::float8),
        icon = CASE WHEN ${iconSupplied}::bool THEN ${draft.icon ?? null}::text ELSE i.icon END,
        updated_at = now()
      WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId} AND i.title = ${draft.title}
        AND ${liveProject(tx, organizationId, projectId)}
      RETURNING i.id, i.project_id AS "projectId", i.value`;
    if (updated) return updated;
    const id = await drawInsightId(tx, organizationId, projectId);
    if (id === undefined || id === 'exhausted') return id && { outcome: id };
    // A concurrent first increment wins the unique key; this one then adds to its value.
    const [inserted] = await tx<{ id: number; projectId: string; value: string }[]>`
      INSERT INTO insights AS i (organization_id, id, project_id, title, value, icon)
      VALUES (${organizationId}, ${id}, ${projectId}, ${draft.title},
              eventlog_insight_increment('0', ${increment}::text::float8), ${draft.icon ?? null}::text)
      ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
        value = eventlog_insight_increment(i.value, ${increment}::text::float8),
        icon = CASE WHEN ${iconSupplied}::bool THEN excluded.icon ELSE i.icon END,
        updated_at = excluded.updated_at
      RETURNING i.id, i.project_id AS "projectId", i.value`;
    return inserted!;
  });
}

/** The project an insight of the organization belongs to (a key's project scope, http/routeScope.ts). */
export async function findInsightProject(sql: Db, organizationId: string, insightId: number): Promise<string | undefined> {
  const [row] = await sql<{ projectId: string }[]>`
    SELECT project_id AS "projectId" FROM insights WHERE organization_id = ${organizationId} AND id = ${insightId}`;
  return row?.projectId;
}

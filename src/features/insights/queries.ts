import type { Db } from '../../db/client.ts';
import type { InsightDraft } from './validateInsightInput.ts';

interface InsightRow {
  id: number;
  projectId: string;
  title: string;
  value: string;
  icon: string | null;
  updatedAt: Date;
}

/** That the project is one of the organization's live ones, as a condition of a statement. */
const liveProject = (sql: Db, organizationId: string, projectId: string) => sql`
  EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${projectId} AND p.deleted_at IS NULL)`;

/** Whether the project is one of the organization's live ones. */
export async function isLiveProject(sql: Db, organizationId: string, projectId: string): Promise<boolean> {
  const [project] = await sql`SELECT 1 AS live WHERE ${liveProject(sql, organizationId, projectId)}`;
  return project !== undefined;
}

/**
 * The existing insight (project, title) of one of the organization's live projects, its value
 * and (when supplied) its icon changed; undefined when there is none. Takes no id.
 */
export async function updateInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: InsightDraft,
): Promise<{ id: number; projectId: string } | undefined> {
  const [updated] = await sql<{ id: number; projectId: string }[]>`
    UPDATE insights i SET
      value = ${draft.value},
      icon = CASE WHEN ${draft.icon !== undefined}::bool THEN ${draft.icon ?? null}::text ELSE i.icon END,
      updated_at = now()
    WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId} AND i.title = ${draft.title}
      AND ${liveProject(sql, organizationId, projectId)}
    RETURNING i.id, i.project_id AS "projectId"`;
  return updated;
}

/**
 * A new insight under the id drawn for it. A concurrent create of the same title wins the unique
 * key; this one then updates it (its drawn id stays unused: ids may have gaps).
 */
export async function insertInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  id: number,
  draft: InsightDraft,
): Promise<{ id: number; projectId: string }> {
  const [inserted] = await sql<{ id: number; projectId: string }[]>`
    INSERT INTO insights (organization_id, id, project_id, title, value, icon)
    VALUES (${organizationId}, ${id}, ${projectId}, ${draft.title}, ${draft.value}, ${draft.icon ?? null}::text)
    ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
      value = excluded.value,
      icon = CASE WHEN ${draft.icon !== undefined}::bool THEN excluded.icon ELSE insights.icon END,
      updated_at = excluded.updated_at
    RETURNING id, project_id AS "projectId"`;
  return inserted!;
}

/**
 * Import: writes insights into a project the organization owns, in one statement, the draft at
 * place k of the list under id `firstId + k`. Titles must be distinct within the call; an
 * existing title keeps its id. Returns the ids written.
 */
export async function insertInsightRows(sql: Db, organizationId: string, projectId: string, firstId: number, drafts: InsightDraft[]): Promise<number[]> {
  const document = JSON.stringify(drafts.map((d, ord) => ({ ord, title: d.title, value: d.value, icon: d.icon ?? null })));
  const rows = await sql<{ id: number }[]>`
    INSERT INTO insights (organization_id, id, project_id, title, value, icon)
    SELECT ${organizationId}, (${firstId}::int8 + i.ord)::int, ${projectId}, i.title, i.value, i.icon
    FROM json_to_recordset(${document}::text::json) AS i(ord int, title text, value text, icon text)
    ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
      value = excluded.value, icon = excluded.icon, updated_at = excluded.updated_at
    RETURNING id`;
  return rows.map((row) => row.id);
}

export function listInsights(sql: Db, organizationId: string, projectId: string): Promise<InsightRow[]> {
  return sql<InsightRow[]>`
    SELECT i.id, i.project_id AS "projectId", i.title, i.value, i.icon, i.updated_at AS "updatedAt"
    FROM insights i
    WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId}
    ORDER BY i.id`;
}

/** Deletes the caller's insight; undefined when there is no such insight for them. */
export async function deleteInsight(sql: Db, organizationId: string, insightId: number): Promise<{ id: number; projectId: string } | undefined> {
  const [row] = await sql<{ id: number; projectId: string }[]>`
    DELETE FROM insights i
    WHERE i.organization_id = ${organizationId} AND i.id = ${insightId}
    RETURNING i.id, i.project_id AS "projectId"`;
  return row;
}

/** Raised by eventlog_insight_increment (migration 052) when the old value or the sum is not a finite number. */
export const NOT_A_NUMBER = 'EVI01';

interface IncrementDraft {
  title: string;
  increment: number;
  icon: string | null | undefined;
}

/**
 * Adds `increment` to the existing insight (project, title) of one of the organization's live
 * projects: the arithmetic happens in the row's UPDATE (migration 052 gives the database
 * JavaScript's number rules), so concurrent increments queue on the row lock and none is lost.
 * Undefined when there is none. Throws NOT_A_NUMBER (nothing written).
 */
export async function incrementInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: IncrementDraft,
): Promise<{ id: number; projectId: string; value: string } | undefined> {
  const [updated] = await sql<{ id: number; projectId: string; value: string }[]>`
    UPDATE insights i SET
      value = eventlog_insight_increment(i.value, ${String(draft.increment)}::text::float8),
      icon = CASE WHEN ${draft.icon !== undefined}::bool THEN ${draft.icon ?? null}::text ELSE i.icon END,
      updated_at = now()
    WHERE i.organization_id = ${organizationId} AND i.project_id = ${projectId} AND i.title = ${draft.title}
      AND ${liveProject(sql, organizationId, projectId)}
    RETURNING i.id, i.project_id AS "projectId", i.value`;
  return updated;
}

/** A new insight of value 0 + `increment` under the id drawn for it; a concurrent first increment wins the unique key, and this one then adds to its value. */
export async function insertIncremented(
  sql: Db,
  organizationId: string,
  projectId: string,
  id: number,
  draft: IncrementDraft,
): Promise<{ id: number; projectId: string; value: string }> {
  const increment = String(draft.increment);
  const [inserted] = await sql<{ id: number; projectId: string; value: string }[]>`
    INSERT INTO insights AS i (organization_id, id, project_id, title, value, icon)
    VALUES (${organizationId}, ${id}, ${projectId}, ${draft.title},
            eventlog_insight_increment('0', ${increment}::text::float8), ${draft.icon ?? null}::text)
    ON CONFLICT (organization_id, project_id, title) DO UPDATE SET
      value = eventlog_insight_increment(i.value, ${increment}::text::float8),
      icon = CASE WHEN ${draft.icon !== undefined}::bool THEN excluded.icon ELSE i.icon END,
      updated_at = excluded.updated_at
    RETURNING i.id, i.project_id AS "projectId", i.value`;
  return inserted!;
}

/** The project an insight of the organization belongs to (a key's project scope, http/routeScope.ts). */
export async function findInsightProject(sql: Db, organizationId: string, insightId: number): Promise<string | undefined> {
  const [row] = await sql<{ projectId: string }[]>`
    SELECT project_id AS "projectId" FROM insights WHERE organization_id = ${organizationId} AND id = ${insightId}`;
  return row?.projectId;
}

import type { Sql, TransactionSql } from '../../db/client.ts';
import type { InsightDraft } from './validateInsightInput.ts';

type Db = Sql | TransactionSql;

export interface InsightRow {
  id: number;
  projectId: string;
  title: string;
  value: string;
  icon: string | null;
  updatedAt: Date;
}

/**
 * Creates or updates the insight (project, title) of one of the organization's projects, in one
 * statement. The icon changes only when supplied. Undefined when the project is not theirs.
 */
export async function upsertInsight(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: InsightDraft,
): Promise<{ id: number; projectId: string } | undefined> {
  const iconSupplied = draft.icon !== undefined;
  const [row] = await sql<{ id: number; projectId: string }[]>`
    INSERT INTO insights (project_id, title, value, icon)
    SELECT p.id, ${draft.title}, ${draft.value}, ${draft.icon ?? null}::text
    FROM projects p WHERE p.id = ${projectId} AND p.organization_id = ${organizationId}
    ON CONFLICT (project_id, title) DO UPDATE SET
      value = excluded.value,
      icon = CASE WHEN ${iconSupplied}::bool THEN excluded.icon ELSE insights.icon END,
      updated_at = now()
    RETURNING id, project_id AS "projectId"`;
  return row;
}

/**
 * Import: writes insights into a project the organization owns, in one statement. Titles must be
 * distinct within the call. Returns the ids actually written.
 */
export async function insertInsights(
  sql: Db,
  organizationId: string,
  projectId: string,
  drafts: InsightDraft[],
): Promise<number[]> {
  const document = JSON.stringify(drafts.map((d) => ({ title: d.title, value: d.value, icon: d.icon ?? null })));
  const rows = await sql<{ id: number }[]>`
    INSERT INTO insights (project_id, title, value, icon)
    SELECT p.id, i.title, i.value, i.icon
    FROM json_to_recordset(${document}::text::json) AS i(title text, value text, icon text)
    JOIN projects p ON p.id = ${projectId} AND p.organization_id = ${organizationId}
    ON CONFLICT (project_id, title) DO UPDATE SET value = excluded.value, icon = excluded.icon, updated_at = now()
    RETURNING id`;
  return rows.map((row) => row.id);
}

export function listInsights(sql: Db, organizationId: string, projectId: string): Promise<InsightRow[]> {
  return sql<InsightRow[]>`
    SELECT i.id, i.project_id AS "projectId", i.title, i.value, i.icon, i.updated_at AS "updatedAt"
    FROM insights i JOIN projects p ON p.id = i.project_id
    WHERE i.project_id = ${projectId} AND p.organization_id = ${organizationId}
    ORDER BY i.id`;
}

/** Deletes the caller's insight; undefined when there is no such insight for them. */
export async function deleteInsight(
  sql: Db,
  organizationId: string,
  insightId: number,
): Promise<{ id: number; projectId: string } | undefined> {
  const [row] = await sql<{ id: number; projectId: string }[]>`
    DELETE FROM insights i USING projects p
    WHERE i.id = ${insightId} AND p.id = i.project_id AND p.organization_id = ${organizationId}
    RETURNING i.id, i.project_id AS "projectId"`;
  return row;
}

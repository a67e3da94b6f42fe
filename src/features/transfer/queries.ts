import type { Db } from '../../db/client.ts';

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
export function streamExportEvents(sql: Db, organizationId: string, projectId: string, batch: number): AsyncIterable<ExportEventRow[]> {
  return sql<ExportEventRow[]>`
    SELECT e.category, e.title, e.description, e.icon, e.tags::text AS tags, e.metadata::text AS metadata,
           e.url, e.user_id, e.notify, e.favorited,
           floor(extract(epoch FROM e.created_at))::int8::text AS created_at
    FROM events e
    WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
    ORDER BY e.created_at, e.id`.cursor(batch);
}

import type { Sql } from '../../db/client.ts';

export interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

const columns = (sql: Sql) =>
  sql`id, organization_id AS "organizationId", name, created_at AS "createdAt"`;

export function listProjects(sql: Sql, organizationId: string): Promise<ProjectRow[]> {
  return sql<ProjectRow[]>`
    SELECT ${columns(sql)} FROM projects WHERE organization_id = ${organizationId}
    ORDER BY created_at, id`;
}

export async function insertProject(sql: Sql, row: { id: string; organizationId: string; name: string }): Promise<void> {
  await sql`INSERT INTO projects (id, organization_id, name) VALUES (${row.id}, ${row.organizationId}, ${row.name})`;
}

/** The project if it belongs to the organization; another organization's reads as missing. */
export async function findProject(sql: Sql, organizationId: string, projectId: string): Promise<ProjectRow | undefined> {
  const [row] = await sql<ProjectRow[]>`
    SELECT ${columns(sql)} FROM projects WHERE id = ${projectId} AND organization_id = ${organizationId}`;
  return row;
}

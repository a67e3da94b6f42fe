import type { Db } from '../../db/client.ts';

export interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  retentionDays: number | null;
  createdAt: Date;
}

const columns = (sql: Db) => sql`id, organization_id AS "organizationId", name, retention_days AS "retentionDays", created_at AS "createdAt"`;

export function listProjects(sql: Db, organizationId: string): Promise<ProjectRow[]> {
  return sql<ProjectRow[]>`
    SELECT ${columns(sql)} FROM projects WHERE organization_id = ${organizationId} AND deleted_at IS NULL
    ORDER BY created_at, id`;
}

export async function insertProject(sql: Db, row: { id: string; organizationId: string; name: string }): Promise<void> {
  await sql`INSERT INTO projects (id, organization_id, name) VALUES (${row.id}, ${row.organizationId}, ${row.name})`;
}

/** The project if it belongs to the organization; another organization's reads as missing. */
export async function findProject(sql: Db, organizationId: string, projectId: string): Promise<ProjectRow | undefined> {
  const [row] = await sql<ProjectRow[]>`
    SELECT ${columns(sql)} FROM projects WHERE id = ${projectId} AND organization_id = ${organizationId} AND deleted_at IS NULL`;
  return row;
}

/** Marks the organization's project deleted: from now on no lookup finds it. Undefined when there is none. */
export async function markProjectDeleted(sql: Db, organizationId: string, projectId: string): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`
    UPDATE projects SET deleted_at = now()
    WHERE organization_id = ${organizationId} AND id = ${projectId} AND deleted_at IS NULL
    RETURNING id`;
  return row?.id;
}

/**
 * The token hashes of a project's hooks, read before the project row goes: their routing rows
 * (organizations/credentials.ts) have no foreign key to cascade, and live in a table keyed by
 * hash, not by organization (a join between the two would cross shards on a distributed database).
 */
export async function selectHookTokenHashes(sql: Db, organizationId: string, projectId: string): Promise<Buffer[]> {
  const hooks = await sql<{ tokenHash: Buffer }[]>`
    SELECT token_hash AS "tokenHash" FROM incoming_hooks
    WHERE organization_id = ${organizationId} AND project_id = ${projectId}`;
  return hooks.map((hook) => hook.tokenHash);
}

/**
 * Removes what is left of a deleted project: the project row, and through its foreign keys its
 * categories, day counts, insights, hooks, destinations, push subscriptions and any event
 * written after the last batch. True when the row was there to delete.
 */
export async function deleteProjectRow(sql: Db, organizationId: string, projectId: string): Promise<boolean> {
  const gone = await sql`
    DELETE FROM projects
    WHERE organization_id = ${organizationId} AND id = ${projectId} AND deleted_at IS NOT NULL
    RETURNING id`;
  return gone.length > 0;
}

/** Deleted projects whose rows are still to be removed, oldest first. */
export function listDeletedProjects(sql: Db, limit: number): Promise<Array<{ organizationId: string; projectId: string }>> {
  return sql<Array<{ organizationId: string; projectId: string }>>`
    SELECT organization_id AS "organizationId", id AS "projectId" FROM projects
    WHERE deleted_at IS NOT NULL ORDER BY deleted_at LIMIT ${limit}`;
}

/**
 * The organization's live projects whose id is `reference`, or else whose name is exactly it
 * (LogSnag's clients name projects). An id match comes alone; a name may match several.
 */
export function findProjectsByIdOrName(sql: Db, organizationId: string, reference: string): Promise<ProjectRow[]> {
  return sql<ProjectRow[]>`
    WITH by_id AS (
      SELECT ${columns(sql)} FROM projects
      WHERE organization_id = ${organizationId} AND id = ${reference} AND deleted_at IS NULL
    )
    SELECT * FROM by_id
    UNION ALL
    (SELECT ${columns(sql)} FROM projects
     WHERE organization_id = ${organizationId} AND name = ${reference} AND deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM by_id)
     ORDER BY created_at, id LIMIT 2)`;
}
/** Renames the project and/or sets its retention; undefined leaves a field as it is. */
export async function updateProject(
  sql: Db,
  q: { organizationId: string; projectId: string; name?: string; retentionDays?: number | null },
): Promise<ProjectRow | undefined> {
  const [row] = await sql<ProjectRow[]>`
    UPDATE projects SET
      name = ${q.name === undefined ? sql`name` : sql`${q.name}`},
      retention_days = ${q.retentionDays === undefined ? sql`retention_days` : sql`${q.retentionDays}::int`}
    WHERE organization_id = ${q.organizationId} AND id = ${q.projectId} AND deleted_at IS NULL
    RETURNING ${columns(sql)}`;
  return row;
}

/**
 * An import's projects: new ones for the organization, or the name of one the import wrote with
 * its first events; returns the ids written.
 */
export async function upsertImportedProjects(sql: Db, organizationId: string, projects: Array<{ id: string; name: string }>): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    INSERT INTO projects (id, organization_id, name)
    SELECT p.id, ${organizationId}, p.name FROM json_to_recordset(${JSON.stringify(projects)}::text::json) AS p(id text, name text)
    ON CONFLICT (organization_id, id) DO UPDATE SET name = excluded.name
    RETURNING id`;
  return rows.map((row) => row.id);
}

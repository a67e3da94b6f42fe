import type { Db } from '../../db/client.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';
import type { ActiveHook } from '../../ports.ts';

export interface HookRow {
  id: string;
  projectId: string;
  name: string;
  category: string;
  enabled: boolean;
  template: string | null;
  tokenSealed: string;
  createdAt: Date;
}

const columns = (sql: Db) => sql`
  h.id, h.project_id AS "projectId", h.name, h.category, h.enabled, h.template, h.token_sealed AS "tokenSealed",
  h.created_at AS "createdAt"`;

/**
 * Inserts into the caller's project; undefined, and nothing written, when the project is not the
 * organization's. The token's routing row (organizations/credentials.ts) is the caller's to write.
 */
export async function insertHook(
  sql: Db,
  organizationId: string,
  row: { id: string; projectId: string; name: string; category: string; template: string | null; tokenHash: Buffer; tokenSealed: string },
): Promise<HookRow | undefined> {
  const [hook] = await sql<HookRow[]>`
    INSERT INTO incoming_hooks AS h (organization_id, id, project_id, name, category, template, token_hash, token_sealed)
    SELECT p.organization_id, ${row.id}, p.id, ${row.name}, ${row.category}, ${row.template}, ${row.tokenHash}, ${row.tokenSealed}
    FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${row.projectId} AND p.deleted_at IS NULL
    RETURNING ${columns(sql)}`;
  return hook;
}

export function listHooks(sql: Db, organizationId: string, projectId: string): Promise<HookRow[]> {
  return sql<HookRow[]>`
    SELECT ${columns(sql)} FROM incoming_hooks h
    WHERE h.organization_id = ${organizationId} AND h.project_id = ${projectId}
    ORDER BY h.created_at, h.id`;
}

export async function setHookEnabled(sql: Db, organizationId: string, hookId: string, enabled: boolean): Promise<HookRow | undefined> {
  const [hook] = await sql<HookRow[]>`
    UPDATE incoming_hooks h SET enabled = ${enabled}
    WHERE h.organization_id = ${organizationId} AND h.id = ${hookId}
    RETURNING ${columns(sql)}`;
  return hook;
}

/** Renames a hook or changes its default category or template; undefined when it is not the organization's. */
export async function updateHook(
  sql: Db,
  organizationId: string,
  hookId: string,
  change: { name?: string; category?: string; template?: string | null },
): Promise<HookRow | undefined> {
  const [hook] = await sql<HookRow[]>`
    UPDATE incoming_hooks h SET
      name = COALESCE(${change.name ?? null}::text, h.name),
      category = COALESCE(${change.category ?? null}::text, h.category),
      template = CASE WHEN ${change.template !== undefined} THEN ${change.template ?? null}::text ELSE h.template END
    WHERE h.organization_id = ${organizationId} AND h.id = ${hookId}
    RETURNING ${columns(sql)}`;
  return hook;
}

/** Deletes the hook; its token's hash, for the caller to delete its routing row. */
export async function deleteHook(sql: Db, organizationId: string, hookId: string): Promise<{ id: string; projectId: string; tokenHash: Buffer } | undefined> {
  const [row] = await sql<{ id: string; projectId: string; tokenHash: Buffer }[]>`
    DELETE FROM incoming_hooks
    WHERE organization_id = ${organizationId} AND id = ${hookId}
    RETURNING id, project_id AS "projectId", token_hash AS "tokenHash"`;
  return row;
}

/**
 * The token is the credential, so it arrives without an organization: its routing row finds the
 * organization, then the hook is read with both (two round trips, each to one organization's
 * rows). Paused hooks are filtered here, so a paused token and an unknown one take the same path
 * and get the same answer.
 */
export async function findEnabledHookByTokenHash(sql: Db, tokenHash: Buffer): Promise<ActiveHook | undefined> {
  const organizationId = await findCredentialOrganization(sql, 'hook', tokenHash);
  if (organizationId === undefined) return undefined;
  const [row] = await sql<ActiveHook[]>`
    SELECT h.id, h.project_id AS "projectId", h.organization_id AS "organizationId", h.category, h.template
    FROM incoming_hooks h
    WHERE h.organization_id = ${organizationId} AND h.token_hash = ${tokenHash} AND h.enabled`;
  return row;
}

/** The project a hook of the organization belongs to (a key's project scope, http/routeScope.ts). */
export async function findHookProject(sql: Db, organizationId: string, hookId: string): Promise<string | undefined> {
  const [row] = await sql<{ projectId: string }[]>`
    SELECT project_id AS "projectId" FROM incoming_hooks WHERE organization_id = ${organizationId} AND id = ${hookId}`;
  return row?.projectId;
}

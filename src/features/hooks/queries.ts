import type { Sql, TransactionSql } from '../../db/client.ts';

type Db = Sql | TransactionSql;

export interface HookRow {
  id: string;
  projectId: string;
  name: string;
  category: string;
  enabled: boolean;
  tokenSealed: string;
  createdAt: Date;
}

const columns = (sql: Db) => sql`
  h.id, h.project_id AS "projectId", h.name, h.category, h.enabled, h.token_sealed AS "tokenSealed",
  h.created_at AS "createdAt"`;

/** Inserts into the caller's project; undefined when the project is not the organization's. */
export async function insertHook(
  sql: Sql,
  organizationId: string,
  row: { id: string; projectId: string; name: string; category: string; tokenHash: Buffer; tokenSealed: string },
): Promise<HookRow | undefined> {
  const [hook] = await sql<HookRow[]>`
    WITH h AS (
      INSERT INTO incoming_hooks (id, project_id, name, category, token_hash, token_sealed)
      SELECT ${row.id}, p.id, ${row.name}, ${row.category}, ${row.tokenHash}, ${row.tokenSealed}
      FROM projects p WHERE p.id = ${row.projectId} AND p.organization_id = ${organizationId}
      RETURNING id, project_id, name, category, enabled, token_sealed, created_at
    )
    SELECT ${columns(sql)} FROM h`;
  return hook;
}

export function listHooks(sql: Sql, organizationId: string, projectId: string): Promise<HookRow[]> {
  return sql<HookRow[]>`
    SELECT ${columns(sql)} FROM incoming_hooks h JOIN projects p ON p.id = h.project_id
    WHERE h.project_id = ${projectId} AND p.organization_id = ${organizationId}
    ORDER BY h.created_at, h.id`;
}

export async function setHookEnabled(
  sql: Sql,
  organizationId: string,
  hookId: string,
  enabled: boolean,
): Promise<HookRow | undefined> {
  const [hook] = await sql<HookRow[]>`
    UPDATE incoming_hooks h SET enabled = ${enabled}
    FROM projects p
    WHERE h.id = ${hookId} AND p.id = h.project_id AND p.organization_id = ${organizationId}
    RETURNING ${columns(sql)}`;
  return hook;
}

export async function deleteHook(
  sql: Sql,
  organizationId: string,
  hookId: string,
): Promise<{ id: string; projectId: string } | undefined> {
  const [row] = await sql<{ id: string; projectId: string }[]>`
    DELETE FROM incoming_hooks h USING projects p
    WHERE h.id = ${hookId} AND p.id = h.project_id AND p.organization_id = ${organizationId}
    RETURNING h.id, h.project_id AS "projectId"`;
  return row;
}

export interface ActiveHook {
  id: string;
  projectId: string;
  organizationId: string;
  category: string;
}

/**
 * The token is the credential, so this is the one lookup not scoped by an organization: it finds
 * the organization. Paused hooks are filtered here, so a paused token and an unknown one take the
 * same path and get the same answer.
 */
export async function findEnabledHookByTokenHash(sql: Sql, tokenHash: Buffer): Promise<ActiveHook | undefined> {
  const [row] = await sql<ActiveHook[]>`
    SELECT h.id, h.project_id AS "projectId", p.organization_id AS "organizationId", h.category
    FROM incoming_hooks h JOIN projects p ON p.id = h.project_id
    WHERE h.token_hash = ${tokenHash} AND h.enabled`;
  return row;
}

export async function insertSettingIfAbsent(sql: Sql, key: string, value: string): Promise<void> {
  await sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
}

export async function readSetting(sql: Sql, key: string): Promise<string | undefined> {
  const [row] = await sql<{ value: string }[]>`SELECT value FROM settings WHERE key = ${key}`;
  return row?.value;
}

import type { Db } from '../../db/client.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  monthlyEventCap: number | null;
}

export async function insertOrganization(sql: Db, row: OrganizationRow): Promise<void> {
  await sql`INSERT INTO organizations (id, name, monthly_event_cap) VALUES (${row.id}, ${row.name}, ${row.monthlyEventCap})`;
}

export async function findOrganization(sql: Db, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`
    SELECT id, name, monthly_event_cap AS "monthlyEventCap" FROM organizations WHERE id = ${id}`;
  return row;
}

// ---- Credentials: the routing rows of credentials that arrive without their organization -------

/** What a row of `credentials` routes: a bearer key, a hook URL token, a session cookie or an invitation token. */
export type CredentialKind = 'api_key' | 'hook' | 'session' | 'invitation' | 'password_reset';

export async function findCredentialRoute(sql: Db, kind: CredentialKind, hash: Buffer): Promise<string | undefined> {
  const [row] = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM credentials WHERE hash = ${hash} AND kind = ${kind}`;
  return row?.organizationId;
}

export async function insertCredentialRoute(sql: Db, kind: CredentialKind, hash: Buffer, organizationId: string): Promise<void> {
  await sql`INSERT INTO credentials (hash, kind, organization_id) VALUES (${hash}, ${kind}, ${organizationId})`;
}

export async function deleteCredentialRoutes(sql: Db, kind: CredentialKind, hashes: Buffer[]): Promise<void> {
  await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = ${kind}`;
}

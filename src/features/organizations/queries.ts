import type { Sql } from '../../db/client.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  monthlyEventCap: number | null;
}

export async function insertOrganization(sql: Sql, row: OrganizationRow): Promise<void> {
  await sql`INSERT INTO organizations (id, name, monthly_event_cap) VALUES (${row.id}, ${row.name}, ${row.monthlyEventCap})`;
}

export async function findOrganization(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`
    SELECT id, name, monthly_event_cap AS "monthlyEventCap" FROM organizations WHERE id = ${id}`;
  return row;
}

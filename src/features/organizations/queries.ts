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

import type { Db } from '../../db/client.ts';
import { type OrganizationRow, findOrganization } from './queries.ts';

/** An organization's record (id, name, monthly cap) for other features; undefined when there is none. */
export function lookUpOrganization(sql: Db, id: string): Promise<OrganizationRow | undefined> {
  return findOrganization(sql, id);
}

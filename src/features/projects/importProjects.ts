import type { Db } from '../../db/client.ts';
import { upsertImportedProjects } from './queries.ts';

/**
 * An import's projects (transfer/), in its transaction: new ones for the organization, or the name
 * of one the import already wrote (unnamed) before its first events; the ids written.
 */
export function writeImportedProjects(tx: Db, organizationId: string, projects: Array<{ id: string; name: string }>): Promise<string[]> {
  return upsertImportedProjects(tx, organizationId, projects);
}

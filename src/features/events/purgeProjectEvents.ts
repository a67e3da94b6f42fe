import type { Db } from '../../db/client.ts';
import { deleteEventsOfDeletedProject } from './deleteQueries.ts';

/**
 * The project purger's batch (projects/projectPurger.ts): deletes up to `limit` events of a project
 * marked deleted, in a statement of its own, and answers how many. A project not marked deleted
 * loses none.
 */
export function purgeProjectEvents(sql: Db, organizationId: string, projectId: string, limit: number): Promise<number> {
  return deleteEventsOfDeletedProject(sql, organizationId, projectId, limit);
}

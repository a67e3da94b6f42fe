import type { Db } from '../../db/client.ts';
import { insertImportedUsers } from './queries.ts';

/**
 * An import's application users (transfer/importDocument.ts): those of a project whose events
 * were just imported, with their counts and first and last event times, in the import's transaction.
 */
export function importUsersOfEvents(tx: Db, organizationId: string, projectId: string): Promise<void> {
  return insertImportedUsers(tx, organizationId, projectId);
}

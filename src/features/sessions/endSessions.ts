import type { Db } from '../../db/client.ts';
import { deleteCredentials } from '../organizations/credentials.ts';
import { deleteSessionsOfUser } from './queries.ts';

/**
 * Ends every session of a member, or every one but the session `keptIdHash` names, with their
 * routing rows: each of their open dashboards is signed out at its next request. Run in the
 * transaction of the change that calls for it (a removal, a new password).
 */
export async function endSessionsOfUser(tx: Db, organizationId: string, userId: string, keptIdHash?: Buffer): Promise<void> {
  await deleteCredentials(tx, 'session', await deleteSessionsOfUser(tx, organizationId, userId, keptIdHash));
}

import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type AccountRow, deleteAccountRow, updatePasswordHash, updateAccountRole } from './queries.ts';

// What other features may change of a dashboard account, in their own transactions: members
// change roles and remove accounts, password resets set passwords. Only this feature writes them.

/** The account's new role; undefined when the organization has no such account. */
export function changeAccountRole(tx: Db, organizationId: string, userId: string, role: Role): Promise<AccountRow | undefined> {
  return updateAccountRole(tx, organizationId, userId, role);
}

/** Stores a new password hash; false when the organization has no such account. */
export function setAccountPassword(tx: Db, organizationId: string, userId: string, passwordHash: string): Promise<boolean> {
  return updatePasswordHash(tx, organizationId, userId, passwordHash);
}

/**
 * Deletes the account and its sign-in email's row, so the address can be invited again; false
 * when there is none. Its sessions are ended first by the caller (sessions/endSessions.ts).
 */
export function deleteAccount(tx: Db, organizationId: string, userId: string): Promise<boolean> {
  return deleteAccountRow(tx, organizationId, userId);
}

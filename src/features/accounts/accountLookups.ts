import type { Db } from '../../db/client.ts';
import { type StoredAccount, selectAccountByEmail, hasAnyAccount } from './queries.ts';

// What other features may ask of the dashboard accounts: signing in, resets, single sign-on and
// first-run setup read them here, and only this feature writes them.

/** The dashboard account with this email address (compared case-insensitively), if any. */
export function findAccountByEmail(sql: Db, email: string): Promise<StoredAccount | undefined> {
  return selectAccountByEmail(sql, email);
}

/** Whether the installation has any dashboard account yet (first-run setup). */
export function anyAccountExists(sql: Db): Promise<boolean> {
  return hasAnyAccount(sql);
}

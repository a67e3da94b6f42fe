import type { Sql } from '../../db/client.ts';
import { openValue, sealValue } from './sealed.ts';

export const CHOICE_COOKIE = 'eventlog_oidc_choice';
/** How long the person may take to choose among their invitations (decision 213). */
export const CHOICE_LIFETIME_SECONDS = 600;

/**
 * The email the issuer vouched for, while its owner chooses which organization's invitation to
 * accept: sealed in a short-lived httpOnly cookie (sealed.ts), the only credential of the choice.
 */
export async function sealChoice(sql: Sql, email: string, now = Date.now()): Promise<string> {
  return sealValue(sql, 'choice', { email }, CHOICE_LIFETIME_SECONDS, now);
}

/** The vouched-for email, or null when the cookie is missing, altered, expired or not ours. */
export async function openChoice(sql: Sql, value: string | undefined, now = Date.now()): Promise<string | null> {
  const parsed = await openValue(sql, 'choice', value, now);
  return parsed && typeof parsed.email === 'string' ? parsed.email : null;
}

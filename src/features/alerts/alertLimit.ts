import type { Db } from '../../db/client.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { lockAndCountAlerts } from './queries.ts';

/**
 * Alerts an organization may have (decision 200): the engine counts each one's window, so an
 * organization with unbounded alerts could take the engine's time from every other.
 */
export const MAX_ALERTS_PER_ORGANIZATION = 1000;

/** Refuses (400) adding `adding` alerts that would take the organization past the limit; in the caller's transaction. */
export async function checkAlertRoom(tx: Db, organizationId: string, adding: number, now: Date): Promise<void> {
  const count = await lockAndCountAlerts(tx, organizationId, now);
  if (count + adding > MAX_ALERTS_PER_ORGANIZATION) {
    throw new InvalidInput(
      `An organization may have at most ${MAX_ALERTS_PER_ORGANIZATION} alerts and this one has ${count}; delete alerts it no longer needs before creating more`,
    );
  }
}

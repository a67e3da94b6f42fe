import type { Static } from '@sinclair/typebox';
import { microsToIso } from '../../lib/time.ts';
import type { AppUserRow } from './queries.ts';
import type { AppUser } from './schemas.ts';

export function userFromRow(row: AppUserRow): Static<typeof AppUser> {
  return {
    userId: row.userId,
    properties: row.properties,
    firstSeen: row.firstSeenMicros === null ? null : microsToIso(row.firstSeenMicros),
    lastSeen: row.lastSeenMicros === null ? null : microsToIso(row.lastSeenMicros),
    eventCount: row.eventCount,
  };
}

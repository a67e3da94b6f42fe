import type { Static } from '@sinclair/typebox';
import { microsToIso } from '../../lib/time.ts';
import type { GroupRow } from './queries.ts';
import type { Group } from './schemas.ts';

export function groupFromRow(row: GroupRow): Static<typeof Group> {
  return {
    id: row.groupId,
    project: row.projectId,
    properties: row.properties,
    users: row.users,
    firstSeenAt: microsToIso(row.firstSeenMicros),
    lastSeenAt: row.lastSeenMicros === null ? null : microsToIso(row.lastSeenMicros),
  };
}

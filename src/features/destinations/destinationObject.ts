import type { Static } from '@sinclair/typebox';
import type { DestinationRow } from './queries.ts';
import type { Destination } from './schemas.ts';
import { isChannelFormat } from '../delivery/channels/index.ts';
import { maskCredentials } from '../delivery/channels/credentials.ts';

export type DestinationObject = Static<typeof Destination>;

export function destinationFromRow(row: DestinationRow): DestinationObject {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    // A channel URL carries the service's credentials: never shown after they are saved.
    url: isChannelFormat(row.format) ? maskCredentials(row.url, row.format) : row.url,
    format: row.format,
    enabled: row.enabled,
    secret: row.format === 'json' ? row.secret : null,
    lastStatus: row.lastAt === null ? null : { ok: row.lastOk === true, at: row.lastAt.toISOString(), status: row.lastStatus, error: row.lastError },
    categories: row.categories,
    disabledReason: row.disabledReason,
    groupWindowSeconds: row.groupWindowSeconds,
    createdAt: row.createdAt.toISOString(),
  };
}

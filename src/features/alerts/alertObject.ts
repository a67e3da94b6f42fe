import type { Static } from '@sinclair/typebox';
import type { AlertRow } from './queries.ts';
import type { Alert } from './schemas.ts';

export type AlertObject = Static<typeof Alert>;

export function alertFromRow(row: AlertRow): AlertObject {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    filter: row.filter,
    condition: { count: row.countMode, threshold: row.threshold, windowSeconds: row.windowSeconds },
    category: row.category,
    renotifySeconds: row.renotifySeconds,
    enabled: row.enabled,
    critical: row.critical,
    mutedUntil: row.mutedUntil?.toISOString() ?? null,
    // A disabled alert is "ok" (updateAlert also stores it so).
    state: row.enabled ? row.state : 'ok',
    stateSince: row.stateSince.toISOString(),
    count: row.count,
    createdAt: row.createdAt.toISOString(),
  };
}

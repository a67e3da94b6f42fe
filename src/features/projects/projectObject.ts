import type { Static } from '@sinclair/typebox';
import type { ProjectRow } from './queries.ts';
import type { Project } from './schemas.ts';

export function projectFromRow(row: ProjectRow): Static<typeof Project> {
  return { id: row.id, organizationId: row.organizationId, name: row.name, retentionDays: row.retentionDays, createdAt: row.createdAt.toISOString() };
}

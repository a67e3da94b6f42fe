import type { VerbArgs } from '../../context.ts';
import type { KeyAccess } from '../../ports.ts';
import { listKeys as selectKeys } from './queries.ts';

interface KeySummary {
  id: string;
  name: string | null;
  prefix: string;
  projects: string[] | null;
  access: KeyAccess;
  origins: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function listKeys({ ctx }: VerbArgs<void>): Promise<KeySummary[]> {
  const rows = await selectKeys(ctx.services.sql, ctx.organizationId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    projects: row.projects,
    access: row.access,
    origins: row.origins,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

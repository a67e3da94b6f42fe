import type { VerbArgs } from '../../context.ts';
import { listKeys as selectKeys } from './queries.ts';

interface KeySummary {
  id: string;
  name: string | null;
  prefix: string;
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
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

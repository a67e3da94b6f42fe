import type { VerbArgs } from '../../context.ts';
import { KEY_REVOKED } from '../../db/announcements.ts';
import { NotFound } from '../../lib/errors.ts';
import { revokeKey as updateRevoked } from './queries.ts';

export async function revokeKey({ ctx, input }: VerbArgs<{ keyId: string }>): Promise<{ id: string; revokedAt: string }> {
  const row = await updateRevoked(ctx.services.sql, ctx.organizationId, input.keyId);
  if (!row) throw new NotFound('API key');
  // This process forgets the key before answering; every other process hears of it through the
  // bus at once. The cache TTL is only a safety net for a lost announcement.
  ctx.services.keys.evict(row.id);
  ctx.services.bus.announce({ type: KEY_REVOKED, organizationId: ctx.organizationId, id: row.id });
  return { id: row.id, revokedAt: row.revokedAt.toISOString() };
}

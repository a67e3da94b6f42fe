import type { VerbArgs } from '../../context.ts';
import { KEY_REVOKED } from '../../db/announcements.ts';
import { NotFound } from '../../lib/errors.ts';
import { revokeKey as updateRevoked } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

export async function revokeKey({ ctx, input }: VerbArgs<{ keyId: string }>): Promise<{ id: string; revokedAt: string }> {
  // Recorded once: a second revoke of the same key answers the first one's time and records nothing.
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const revoked = await updateRevoked(tx, ctx.organizationId, input.keyId);
    if (revoked?.now) await recordAudit(tx, ctx, { action: 'key.revoke', target: { type: 'key', id: revoked.id } });
    return revoked;
  });
  if (!row) throw new NotFound('API key');
  // This process forgets the key before answering; every other process hears of it through the
  // bus at once. The cache TTL is only a safety net for a lost announcement.
  ctx.services.keys.evict(row.id);
  ctx.services.bus.announce({ type: KEY_REVOKED, organizationId: ctx.organizationId, id: row.id });
  return { id: row.id, revokedAt: row.revokedAt.toISOString() };
}

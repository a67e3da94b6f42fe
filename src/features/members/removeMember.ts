import { withTransaction } from '../../db/client.ts';
import type { VerbArgs } from '../../context.ts';
import { MEMBER_REMOVED } from '../../db/announcements.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { LAST_OWNER } from './changeRole.ts';
import { endSessionsOfUser } from '../sessions/endSessions.ts';
import { deleteAccount } from '../accounts/accountChanges.ts';
import { countOwners, findMember, lockMembership } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';

/**
 * POST /api/members/:memberId/delete: deletes the account (the email can be invited again) and
 * its sessions. Every request looks its session up in the database, so the member's next request
 * is refused in every process; the announcement closes their open live streams at once.
 */
export async function removeMember({ ctx, input }: VerbArgs<{ memberId: string }>): Promise<{ id: string; deleted: true }> {
  await withTransaction(ctx.services.sql, async (tx) => {
    await lockMembership(tx, ctx.organizationId);
    const member = await findMember(tx, ctx.organizationId, input.memberId);
    if (!member) throw new NotFound('Member');
    if (member.role === 'owner' && (await countOwners(tx, ctx.organizationId)) <= 1) throw new InvalidInput(LAST_OWNER);
    // Recorded before the delete, while the actor's own email can still be read (an owner may remove themself).
    await recordAudit(tx, ctx, { action: 'member.remove', target: { type: 'member', id: input.memberId } });
    // Its sessions (with their routing rows), then the account (its push subscriptions by cascade).
    await endSessionsOfUser(tx, ctx.organizationId, input.memberId);
    if (!(await deleteAccount(tx, ctx.organizationId, input.memberId))) throw new NotFound('Member');
  });
  ctx.services.bus.announce({ type: MEMBER_REMOVED, organizationId: ctx.organizationId, id: input.memberId });
  return { id: input.memberId, deleted: true };
}

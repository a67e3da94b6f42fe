import { withTransaction } from '../../db/client.ts';
import type { Role, VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { type MemberObject, memberObject } from './listMembers.ts';
import { changeAccountRole } from '../accounts/accountChanges.ts';
import { countOwners, findMember, lockMembership } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';

export const LAST_OWNER = 'An organization needs at least one owner: make someone else an owner first';

/**
 * POST /api/members/:memberId/role. Sessions read the role on every request, so the change
 * applies to the member's open sessions at once.
 */
export async function changeRole({ ctx, input }: VerbArgs<{ memberId: string; role: Role }>): Promise<MemberObject> {
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    await lockMembership(tx, ctx.organizationId);
    const member = await findMember(tx, ctx.organizationId, input.memberId);
    if (!member) throw new NotFound('Member');
    if (member.role === 'owner' && input.role !== 'owner' && (await countOwners(tx, ctx.organizationId)) <= 1) {
      throw new InvalidInput(LAST_OWNER);
    }
    const changed = await changeAccountRole(tx, ctx.organizationId, input.memberId, input.role);
    if (changed) await recordAudit(tx, ctx, { action: 'member.role', target: { type: 'member', id: input.memberId } });
    return changed;
  });
  if (!row) throw new NotFound('Member');
  return memberObject(row);
}

import { withTransaction } from '../../db/client.ts';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { deleteInvitation } from './invitationWrites.ts';

/** POST /api/invitations/:invitationId/revoke: the link stops working at once; recorded in the audit log. */
export async function revokeInvitation({ ctx, input }: VerbArgs<{ invitationId: string }>): Promise<{ id: string; revoked: true }> {
  const deleted = await withTransaction(ctx.services.sql, async (tx) => {
    if (!(await deleteInvitation(tx, ctx.organizationId, input.invitationId))) return false;
    await recordAudit(tx, ctx, { action: 'invitation.revoke', target: { type: 'invitation', id: input.invitationId } });
    return true;
  });
  if (!deleted) throw new NotFound('Invitation');
  return { id: input.invitationId, revoked: true };
}

import { withTransaction } from '../../db/client.ts';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteInvitation } from './queries.ts';

/** POST /api/invitations/:invitationId/revoke: the link stops working at once. */
export async function revokeInvitation({ ctx, input }: VerbArgs<{ invitationId: string }>): Promise<{ id: string; revoked: true }> {
  const deleted = await withTransaction(ctx.services.sql, (tx) => deleteInvitation(tx, ctx.organizationId, input.invitationId));
  if (!deleted) throw new NotFound('Invitation');
  return { id: input.invitationId, revoked: true };
}

import type { Role, VerbArgs } from '../../context.ts';
import { listInvitations as selectInvitations } from './queries.ts';

interface PendingInvitationObject {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** GET /api/invitations: the invitations not yet accepted or revoked, newest first (expired ones too). */
export async function listInvitations({ ctx }: VerbArgs<void>): Promise<PendingInvitationObject[]> {
  return (await selectInvitations(ctx.services.sql, ctx.organizationId)).map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}

import type { Role, VerbArgs } from '../../context.ts';
import { listMembers as selectMembers } from './queries.ts';

export interface MemberObject {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export const memberObject = (row: { id: string; email: string; role: Role; createdAt: Date }): MemberObject => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});

/** GET /api/members: everyone who can sign in to this organization, oldest first. */
export async function listMembers({ ctx }: VerbArgs<void>): Promise<MemberObject[]> {
  return (await selectMembers(ctx.services.sql, ctx.organizationId)).map(memberObject);
}

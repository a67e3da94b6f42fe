import { OPERATOR, type Services } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { createAccount } from './createAccount.ts';

/**
 * `eventlog user create`: an owner made from the command line, recorded in the organization's
 * audit log (`member.create`, actor the operator) in the same transaction, so the owners can see
 * who got in without an invitation.
 */
export async function createAccountAsOperator({
  services,
  input,
}: {
  services: Services;
  input: { organizationId: string; email: string; password: string };
}): Promise<{ id: string; email: string }> {
  return withTransaction(services.sql, async (tx) => {
    const user = await createAccount({ ctx: { services: { sql: tx }, actor: OPERATOR }, input });
    await recordAudit(tx, { organizationId: input.organizationId, actor: OPERATOR }, { action: 'member.create', target: { type: 'member', id: user.id } });
    return user;
  });
}

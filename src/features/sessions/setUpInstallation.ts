import { withTransaction } from '../../db/client.ts';
import type { InstallationCtx } from '../../context.ts';
import { Conflict } from '../../lib/errors.ts';
import { createOrganization } from '../organizations/createOrganization.ts';
import { createAccount } from '../accounts/createAccount.ts';
import { anyAccountExists } from '../accounts/accountLookups.ts';
import { type OpenedSession, openSession } from './openSession.ts';
import { lockFirstRunSetup } from './queries.ts';

interface SetupInput {
  organizationName: string;
  email: string;
  password: string;
}

/**
 * POST /api/setup: on an installation with no user yet, creates the first organization, its
 * owner and a signed-in session, all or nothing. The emptiness check and the writes share one
 * transaction under an advisory lock, so of two setups racing, the second waits, then sees the
 * first one's user and gets 409.
 */
export async function setUpInstallation({ ctx, input }: { ctx: InstallationCtx; input: SetupInput }): Promise<OpenedSession> {
  // The shared verbs take the transaction as their `sql`, so they write inside it as they are.
  return withTransaction(ctx.services.sql, async (tx) => {
    const inTransaction = { ...ctx, services: { sql: tx } };
    await lockFirstRunSetup(tx);
    if (await anyAccountExists(tx)) throw new Conflict('This installation is already set up; sign in instead');
    const organization = await createOrganization({ ctx: inTransaction, input: { name: input.organizationName } });
    const user = await createAccount({
      ctx: inTransaction,
      input: { organizationId: organization.id, email: input.email, password: input.password },
    });
    return openSession(tx, user, organization);
  });
}

import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/recordAudit.ts';

/** The audit entry of a sign-in (password or OpenID Connect), in the transaction that opens the session. */
export async function recordSignIn(tx: Db, signedIn: { organizationId: string; userId: string; role: Role; ip?: string | null }): Promise<void> {
  const actor = { kind: 'user', userId: signedIn.userId, sessionId: '', role: signedIn.role } as const;
  await recordAudit(
    tx,
    { organizationId: signedIn.organizationId, actor, ip: signedIn.ip },
    { action: 'session.signin', target: { type: 'member', id: signedIn.userId } },
  );
}

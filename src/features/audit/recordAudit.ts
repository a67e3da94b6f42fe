import type { Actor } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { findActorLabel, insertAuditEntry } from './queries.ts';

/** Every action the audit log records (extensions.md, "Audit log"). */
type AuditAction =
  | 'key.create'
  | 'key.revoke'
  | 'member.invite'
  | 'member.join'
  | 'member.role'
  | 'member.remove'
  | 'session.signin'
  | 'session.signin_failed'
  | 'password.reset'
  | 'project.create'
  | 'project.update'
  | 'project.delete'
  | 'hook.create'
  | 'hook.update'
  | 'hook.delete'
  | 'destination.create'
  | 'destination.update'
  | 'destination.delete'
  | 'destination.rotate_secret'
  | 'destination.test'
  | 'alert.create'
  | 'alert.update'
  | 'alert.delete'
  | 'import'
  | 'export'
  // Beyond the contract's list: who got in without an invitation, and a withdrawn invitation.
  | 'member.create'
  | 'invitation.revoke';

/** Who acted where: a verb's ctx, or an installation-wide verb's with the organization it chose. */
interface AuditScope {
  organizationId: string;
  /** A visitor (no credential yet) or null records no actor (a failed sign-in). A member may be named by id alone (a password reset). */
  actor: Actor | { kind: 'user'; userId: string } | { kind: 'visitor' } | null;
  ip?: string | null;
}

/**
 * Records one audit entry in `tx`, the transaction of the action it records: call it inside
 * `withTransaction(sql, async (tx) => { ...the action...; await recordAudit(tx, ctx, {...}) })`,
 * after the action has succeeded, so that a failed action leaves no entry and an entry never
 * exists without its action. `target` names what was acted on (`{ type: 'alert', id }`).
 */
export async function recordAudit(tx: Db, scope: AuditScope, entry: { action: AuditAction; target: { type: string; id: string } | null }): Promise<void> {
  const actor = scope.actor && scope.actor.kind !== 'visitor' ? scope.actor : null;
  let actorId: string | null = null;
  let actorLabel: string | null = null;
  if (actor?.kind === 'user') actorId = actor.userId;
  if (actor?.kind === 'key') actorId = actor.keyId;
  if (actorId !== null && actor && actor.kind !== 'operator') actorLabel = await findActorLabel(tx, scope.organizationId, actor.kind, actorId);
  await insertAuditEntry(tx, {
    organizationId: scope.organizationId,
    id: newId(16),
    actorKind: actor?.kind ?? null,
    actorId,
    actorLabel,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    ip: scope.ip ?? null,
  });
}

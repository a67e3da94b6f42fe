// The audit log's entries in words (extensions.md, "Audit log"); no DOM, so unit tests may import it.
import type { AuditEntry } from '../../types.ts';

/** Every action the server records, in the spec's order (then the server's own), with what it means. */
export const AUDIT_ACTIONS: ReadonlyArray<readonly [action: string, words: string]> = [
  ['key.create', 'API key created'],
  ['key.revoke', 'API key revoked'],
  ['member.invite', 'Member invited'],
  ['member.join', 'Member joined'],
  ['member.role', 'Role changed'],
  ['member.remove', 'Member removed'],
  ['session.signin', 'Signed in'],
  ['session.signin_failed', 'Sign-in failed (wrong password)'],
  ['password.reset', 'Password reset'],
  ['project.create', 'Project created'],
  ['project.update', 'Project changed'],
  ['project.delete', 'Project deleted'],
  ['hook.create', 'Hook created'],
  ['hook.update', 'Hook changed'],
  ['hook.delete', 'Hook deleted'],
  ['destination.create', 'Destination created'],
  ['destination.update', 'Destination changed'],
  ['destination.delete', 'Destination deleted'],
  ['destination.rotate_secret', 'Destination secret rotated'],
  ['destination.test', 'Destination tested'],
  ['alert.create', 'Alert created'],
  ['alert.update', 'Alert changed'],
  ['alert.delete', 'Alert deleted'],
  ['import', 'Data imported'],
  ['export', 'Data exported'],
  ['member.create', 'Member created (command line)'],
  ['invitation.revoke', 'Invitation revoked'],
];

/** An action's words; an action this dashboard does not know yet shows as the server wrote it. */
export const actionWords = (action: string) => AUDIT_ACTIONS.find(([known]) => known === action)?.[1] ?? action;

/** Who acted: the name, and what kind of actor it is. */
export function actorWords(actor: AuditEntry['actor']): { label: string; kind: string } {
  if (actor === null) return { label: 'Nobody signed in', kind: 'visitor' };
  if (actor.kind === 'operator') return { label: 'Command line', kind: 'operator' };
  const kind = actor.kind === 'user' ? 'dashboard user' : 'API key';
  return { label: actor.label ?? actor.id ?? 'unknown', kind };
}

/** Whether an entry's actor matches the actor filter: its label (or kind) contains the text, any case. */
export function actorMatches(entry: AuditEntry, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  const { label, kind } = actorWords(entry.actor);
  return label.toLowerCase().includes(needle) || kind.toLowerCase().includes(needle);
}

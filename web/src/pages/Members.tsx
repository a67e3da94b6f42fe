import { type FormEvent, useState } from 'react';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import { useFieldErrors } from '../components/FieldError.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useSignedIn } from '../session.tsx';
import type { Invitation, Member, PendingInvitation, Role } from '../types.ts';
import { InvitationDialog } from './members/InvitationDialog.tsx';
import { PendingInvitations } from './members/PendingInvitations.tsx';
import './members/members.css';

/** Owners only: the server answers a member with 403, which this page shows as it is. */
export function MembersPage() {
  const toast = useToast();
  const session = useSignedIn();
  const { data: members, error, setData: setMembers } = useResource((signal) => api.listMembers({ signal }), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [inviting, setInviting] = useState(false);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const pending = useResource((signal) => api.listInvitations({ signal }), []);
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  const fields = useFieldErrors({ email: ['email'] });

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setInviting(true);
    fields.clear();
    try {
      setInvitation(await api.createInvitation({ body: { email, role } }));
      setEmail('');
      void pending.reload();
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not invite');
    } finally {
      setInviting(false);
    }
  };

  const changeRole = async (member: Member, next: Role) => {
    try {
      const updated = await api.changeMemberRole({ path: { memberId: member.id }, body: { role: next } });
      setMembers((list) => list?.map((m) => (m.id === updated.id ? updated : m)) ?? null);
      toast.success(`${updated.email} is now ${updated.role === 'owner' ? 'an owner' : 'a member'}`);
      if (member.id === session.user.id) window.location.reload();
    } catch (failure) {
      toast.error(failure, 'Could not change the role');
    }
  };

  const remove = async () => {
    if (!removing) return;
    try {
      await api.removeMember({ path: { memberId: removing.id } });
      setMembers((list) => list?.filter((m) => m.id !== removing.id) ?? null);
      toast.success(`${removing.email} was removed`);
      setRemoving(null);
    } catch (failure) {
      toast.error(failure, 'Could not remove');
    }
  };

  const resend = async (invitation: PendingInvitation) => {
    try {
      setInvitation(await api.resendInvitation({ path: { invitationId: invitation.id } }));
      void pending.reload();
    } catch (failure) {
      toast.error(failure, 'Could not resend');
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    try {
      await api.revokeInvitation({ path: { invitationId: revoking.id } });
      pending.setData((list) => list?.filter((i) => i.id !== revoking.id) ?? null);
      toast.success(`The invitation of ${revoking.email} was revoked`);
      setRevoking(null);
    } catch (failure) {
      toast.error(failure, 'Could not revoke');
    }
  };

  return (
    <main className="page page-narrow">
      <PageHeader
        title="Members"
        subtitle="Owners can do everything. Members can do everything except manage API keys, members and invitations, and delete projects."
      />
      <ErrorBanner what="Could not load members" error={error} />
      {!error && (
        <form className="invite-form" onSubmit={(e) => void invite(e)} aria-label="Invite a person">
          <label className="field">
            <span>Email</span>
            <input
              type="email"
              name="email"
              required
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                fields.clear('email');
              }}
              {...fields.describe('email')}
            />
            {fields.message('email')}
          </label>
          <label className="field">
            <span>Role</span>
            <select name="role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <button type="submit" className="button button-primary" disabled={inviting}>
            {inviting ? 'Inviting…' : 'Invite'}
          </button>
        </form>
      )}
      {members === null && !error && <Skeleton what="members" />}
      {members && (
        <div className="table-wrap">
          <table className="table members-table" aria-label="Members">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id} data-testid="member-row">
                  <td>
                    {member.email}
                    {member.id === session.user.id && <span className="muted"> (you)</span>}
                  </td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                      Role of {member.email}
                    </label>
                    <select id={`role-${member.id}`} value={member.role} onChange={(e) => void changeRole(member, e.target.value as Role)}>
                      <option value="owner">Owner</option>
                      <option value="member">Member</option>
                    </select>
                  </td>
                  <td>
                    <RelativeTime iso={member.createdAt} />
                  </td>
                  <td className="num">
                    {member.id === session.user.id && members.filter((other) => other.role === 'owner').length === 1 ? (
                      <span className="muted small" data-testid="only-owner">
                        The only owner
                      </span>
                    ) : (
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setRemoving(member)}>
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {!error && <PendingInvitations invitations={pending.data} error={pending.error} onResend={(i) => void resend(i)} onRevoke={setRevoking} />}

      <InvitationDialog invitation={invitation} onClose={() => setInvitation(null)} />

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this invitation?"
        message={<p>The link sent to {revoking?.email} stops working at once. You can invite them again later.</p>}
        confirmLabel="Revoke"
        danger
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />

      <ConfirmDialog
        open={removing !== null}
        title="Remove this person?"
        message={<p>{removing?.email} loses access at once: their account is deleted and their sessions end.</p>}
        confirmLabel="Remove"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </main>
  );
}

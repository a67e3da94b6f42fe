import './members.css';
import { LongDate } from '../../components/Time.tsx';
import type { PendingInvitation } from '../../types.ts';

/** The invitations nobody accepted yet, with when each link stops (or stopped) working. */
export function PendingInvitations({
  invitations,
  error,
  onResend,
  onRevoke,
}: {
  invitations: PendingInvitation[] | null;
  error: string | null;
  onResend: (invitation: PendingInvitation) => void;
  onRevoke: (invitation: PendingInvitation) => void;
}) {
  if (error) {
    return (
      <div className="banner banner-error" role="alert">
        <span>Could not load invitations: {error}</span>
      </div>
    );
  }
  if (!invitations) return null;
  return (
    <section aria-labelledby="pending-invitations">
      <h2 id="pending-invitations">Pending invitations</h2>
      {invitations.length === 0 ? (
        <p className="muted">No pending invitations. People you invite appear here until they accept.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Pending invitations">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Link</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => {
                const expired = Date.parse(invitation.expiresAt) <= Date.now();
                return (
                  <tr key={invitation.id} data-testid="invitation-row">
                    <td>{invitation.email}</td>
                    <td>{invitation.role === 'owner' ? 'Owner' : 'Member'}</td>
                    <td>
                      {expired ? (
                        <span className="invitation-expired">
                          Expired on <LongDate iso={invitation.expiresAt} />
                        </span>
                      ) : (
                        <>
                          Valid until <LongDate iso={invitation.expiresAt} />
                        </>
                      )}
                    </td>
                    <td className="num">
                      <div className="invitation-actions">
                        <button type="button" className="button button-small" onClick={() => onResend(invitation)}>
                          Resend<span className="visually-hidden"> the invitation of {invitation.email}</span>
                        </button>
                        <button type="button" className="button button-small button-danger-outline" onClick={() => onRevoke(invitation)}>
                          Revoke<span className="visually-hidden"> the invitation of {invitation.email}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

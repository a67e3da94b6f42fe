import './members.css';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
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
  if (error) return <ErrorBanner what="Could not load invitations" error={error} />;
  if (!invitations) return null;
  return (
    <section aria-labelledby="pending-invitations">
      <h2 id="pending-invitations">Pending invitations</h2>
      {invitations.length === 0 ? (
        <p className="muted">No pending invitations. People you invite appear here until they accept.</p>
      ) : (
        <ul className="invitation-list" aria-label="Pending invitations">
          {invitations.map((invitation) => {
            const expired = Date.parse(invitation.expiresAt) <= Date.now();
            return (
              <li key={invitation.id} className="invitation-item" data-testid="invitation-row">
                <div className="invitation-who">
                  <strong>{invitation.email}</strong>
                  <span className="muted small">
                    {invitation.role === 'owner' ? 'Owner' : 'Member'} ·{' '}
                    {expired ? (
                      <span className="invitation-expired">
                        Expired on <LongDate iso={invitation.expiresAt} />
                      </span>
                    ) : (
                      <>
                        Valid until <LongDate iso={invitation.expiresAt} />
                      </>
                    )}
                  </span>
                </div>
                <div className="invitation-actions">
                  <button type="button" className="button button-small" onClick={() => onResend(invitation)}>
                    Resend<span className="visually-hidden"> the invitation of {invitation.email}</span>
                  </button>
                  <button type="button" className="button button-small button-danger-outline" onClick={() => onRevoke(invitation)}>
                    Revoke<span className="visually-hidden"> the invitation of {invitation.email}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

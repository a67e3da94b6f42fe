import { useEffect, useState } from 'react';
import { ApiError, describeError } from '../api.ts';
import * as api from '../generated/index.ts';
import type { ListInvitationChoicesResponse } from '../generated/sessions.ts';
import { APP_BASE } from '../paths.ts';
import './chooseInvitation/chooseInvitation.css';

type Choices = { status: 'loading' } | { status: 'ready'; choices: ListInvitationChoicesResponse } | { status: 'failed'; message: string; expired: boolean };

/**
 * /app/signin/choose: the identity provider vouched for an email that several organizations
 * invited, and nobody is signed in until the person picks one (decision 213). Each pending
 * invitation gets its own "Join" button; the others stay pending.
 */
export function ChooseInvitationPage() {
  const [choices, setChoices] = useState<Choices>({ status: 'loading' });
  const [joining, setJoining] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.listInvitationChoices({ quiet401: true }).then(
      (loaded) => live && setChoices({ status: 'ready', choices: loaded }),
      (failure: unknown) =>
        live && setChoices({ status: 'failed', message: describeError(failure), expired: failure instanceof ApiError && failure.status === 401 }),
    );
    return () => {
      live = false;
    };
  }, []);

  async function join(invitationId: string) {
    setJoining(invitationId);
    setError(null);
    try {
      await api.acceptInvitationChoice({ path: { invitationId } }, { quiet401: true });
      // The session cookie is set: the dashboard opens afresh, signed in to the chosen organization.
      window.location.assign(`${APP_BASE}/`);
    } catch (failure) {
      setError(describeError(failure));
      setJoining(null);
    }
  }

  return (
    <main className="auth-page">
      <div className="card auth-card" aria-labelledby="choose-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id="choose-title">Choose an organization</h1>
        {choices.status === 'loading' && (
          <p className="muted" aria-busy="true">
            Loading your invitations…
          </p>
        )}
        {choices.status === 'failed' && (
          <>
            <p className="banner banner-error" role="alert">
              {choices.expired ? 'This choice has expired or is unknown. Sign in again to choose.' : choices.message}
            </p>
            <p>
              <a href={`${APP_BASE}/`}>Go to sign-in</a>
            </p>
          </>
        )}
        {choices.status === 'ready' && (
          <>
            <p data-testid="choice-intro">
              Several organizations invited <strong>{choices.choices.email}</strong>. Join the one you want; the other invitations stay pending.
            </p>
            {error && (
              <p className="banner banner-error" role="alert">
                {error}
              </p>
            )}
            {choices.choices.invitations.length === 0 ? (
              <p>
                No invitation is pending for this email any more. <a href={`${APP_BASE}/`}>Go to sign-in</a>
              </p>
            ) : (
              <ul className="choice-list">
                {choices.choices.invitations.map((invitation) => (
                  <li key={invitation.id} className="choice-item">
                    <h2>{invitation.organization.name}</h2>
                    <p className="muted">
                      As {invitation.role === 'owner' ? 'an owner' : 'a member'}
                      {invitation.invitedBy ? `, invited by ${invitation.invitedBy}` : ''}
                    </p>
                    <button type="button" className="button button-primary" disabled={joining !== null} onClick={() => void join(invitation.id)}>
                      {joining === invitation.id ? 'Joining…' : `Join ${invitation.organization.name}`}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </main>
  );
}

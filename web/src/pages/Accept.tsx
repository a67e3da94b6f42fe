import { useEffect, useState } from 'react';
import { ApiError, describeError } from '../api.ts';
import { AuthCard, NewPasswordField } from '../components/AuthCard.tsx';
import { LongDate } from '../components/Time.tsx';
import * as api from '../generated/index.ts';
import { APP_BASE } from '../paths.ts';
import { useSession } from '../session.tsx';
import type { InvitationPreview } from '../types.ts';

type Preview =
  | { status: 'loading' }
  | { status: 'ready'; invitation: InvitationPreview }
  /** The server refused the token (400): the form would only fail. */
  | { status: 'unusable'; message: string }
  /** No answer (offline, a server error): the form stays, as accepting may still work. */
  | { status: 'unchecked'; message: string };

/**
 * /app/accept/<token>: the invitation link. It first says what the link joins (the organization,
 * the email and the role, from POST /api/invitations/preview, which changes nothing); setting a
 * password then creates the account and signs in.
 */
export function AcceptPage({ token }: { token: string }) {
  const { acceptInvitation } = useSession();
  const [password, setPassword] = useState('');
  const [preview, setPreview] = useState<Preview>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    api.previewInvitation({ body: { token } }, { quiet401: true }).then(
      (invitation) => live && setPreview({ status: 'ready', invitation }),
      (failure: unknown) =>
        live && setPreview({ status: failure instanceof ApiError && failure.status === 400 ? 'unusable' : 'unchecked', message: describeError(failure) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (preview.status === 'unusable') {
    return (
      <main className="auth-page">
        <div className="card auth-card">
          <div className="auth-brand">
            <span className="brand-mark" aria-hidden="true" /> Eventlog
          </div>
          <h1>This invitation cannot be used</h1>
          <p className="banner banner-error" role="alert">
            {preview.message}
          </p>
          <p>
            <a href={`${APP_BASE}/`}>Go to sign-in</a>
          </p>
        </div>
      </main>
    );
  }

  const invitation = preview.status === 'ready' ? preview.invitation : null;
  return (
    <AuthCard
      titleId="accept-title"
      title={invitation ? `Join ${invitation.organization}` : 'Join your team'}
      action={() => acceptInvitation(token, password)}
      submitLabel="Accept and sign in"
      busyLabel="Joining…"
      intro={
        invitation ? (
          <p data-testid="invitation-summary">
            You are invited to <strong>{invitation.organization}</strong> as {invitation.role === 'owner' ? 'an owner' : 'a member'}, with the email{' '}
            <strong>{invitation.email}</strong>. Choose a password (at least 8 characters) to accept and sign in. The link works until{' '}
            <LongDate iso={invitation.expiresAt} />.
          </p>
        ) : preview.status === 'unchecked' ? (
          <p className="muted">The invitation could not be checked ({preview.message}). Choose a password (at least 8 characters) to accept it and sign in.</p>
        ) : (
          <p className="muted" aria-busy="true">
            Checking the invitation…
          </p>
        )
      }
    >
      {invitation && (
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="username" readOnly value={invitation.email} />
        </label>
      )}
      <NewPasswordField label="Password" value={password} onChange={setPassword} />
    </AuthCard>
  );
}

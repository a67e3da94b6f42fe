import { useEffect, useState } from 'react';
import { describeError } from '../api.ts';
import { AuthCard, NewPasswordField } from '../components/AuthCard.tsx';
import * as api from '../generated/index.ts';
import { APP_BASE } from '../paths.ts';

function Done({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="auth-page">
      <div className="card auth-card" role="status" aria-labelledby="done-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id="done-title">{title}</h1>
        {children}
        <p>
          <a href={APP_BASE}>Go to sign in</a>
        </p>
      </div>
    </main>
  );
}

/** /app/forgot: asks for a reset link by email. The answer is the same for any address. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  if (sent) {
    return (
      <Done title="Check your email">
        <p>If {email} belongs to an account, a link to choose a new password is on its way. It works once, for 1 hour.</p>
      </Done>
    );
  }
  return (
    <AuthCard
      titleId="forgot-title"
      title="Forgot your password?"
      action={async () => {
        await api.requestPasswordReset({ body: { email } });
        setSent(true);
      }}
      submitLabel="Email me a link"
      busyLabel="Sending…"
      intro={<p className="muted">Enter the email you sign in with; we will send a link to choose a new password.</p>}
      footer={
        <p className="small">
          <a href={APP_BASE}>Back to sign in</a>
        </p>
      }
    >
      <label className="field">
        <span>Email</span>
        <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
    </AuthCard>
  );
}

/** /app/reset/<token>: the mailed link. A new password signs out every session of the account. */
export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  // The account the link is for, or why it cannot be used: a used link shows no form.
  const [link, setLink] = useState<api.PreviewPasswordResetResponse | { unusable: string } | null>(null);
  useEffect(() => {
    api.previewPasswordReset({ body: { token } }, { quiet401: true }).then(setLink, (failure: unknown) => setLink({ unusable: describeError(failure) }));
  }, [token]);
  if (link === null) {
    return (
      <main className="auth-page" aria-busy="true">
        <div className="card auth-card">Checking the link…</div>
      </main>
    );
  }
  if ('unusable' in link && !done) {
    return (
      <Done title="This link cannot be used">
        <p data-testid="reset-unusable">{link.unusable}.</p>
        <p>
          <a href={`${APP_BASE}/forgot`}>Ask for a new link</a>
        </p>
      </Done>
    );
  }
  if (done) {
    return (
      <Done title="Your password is changed">
        <p>Sign in with your new password. Every session that was open with the old one has ended.</p>
      </Done>
    );
  }
  return (
    <AuthCard
      titleId="reset-title"
      title="Choose a new password"
      action={async () => {
        await api.confirmPasswordReset({ body: { token, password } });
        setDone(true);
      }}
      submitLabel="Set password"
      busyLabel="Saving…"
      intro={
        <p className="muted">
          For <strong data-testid="reset-account">{'email' in link ? link.email : ''}</strong>. At least 8 characters. Every session of this account ends when
          it is set.
        </p>
      }
    >
      <NewPasswordField label="New password" value={password} onChange={setPassword} />
    </AuthCard>
  );
}

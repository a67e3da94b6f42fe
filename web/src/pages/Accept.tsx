import { type FormEvent, useState } from 'react';
import { describeError } from '../api.ts';
import { useSession } from '../session.tsx';

/** /app/accept/<token>: the invitation link. Setting a password creates the account and signs in. */
export function AcceptPage({ token }: { token: string }) {
  const { acceptInvitation } = useSession();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation(token, password);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(e) => void submit(e)} aria-labelledby="accept-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id="accept-title">Join your team</h1>
        <p className="muted">Choose a password (at least 8 characters) to accept the invitation and sign in.</p>
        {error && (
          <p className="banner banner-error" role="alert">
            {error}
          </p>
        )}
        <label className="field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Joining…' : 'Accept and sign in'}
        </button>
      </form>
    </main>
  );
}

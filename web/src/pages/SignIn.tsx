import { type FormEvent, useState } from 'react';
import { describeError } from '../api.ts';
import { useSession } from '../session.tsx';

export function SignInPage({ notice }: { notice?: string }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(event) => void submit(event)} aria-labelledby="signin-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id="signin-title">Sign in</h1>
        {notice && !error && (
          <p className="banner banner-info" role="status">
            {notice}
          </p>
        )}
        {error && (
          <p className="banner banner-error" role="alert">
            {error}
          </p>
        )}
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          No account? Ask an owner of your organization for an invitation link, or an operator can create one with{' '}
          <code>npx eventlog user create &lt;email&gt; --org &lt;orgId&gt;</code>; the organization id is on the Organization page of
          the dashboard (and in the output of <code>eventlog org create</code>).
        </p>
      </form>
    </main>
  );
}

export function SetupPage() {
  const { setup } = useSession();
  const [organizationName, setOrganizationName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await setup({ organizationName, email, password });
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(event) => void submit(event)} aria-labelledby="setup-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id="setup-title">Welcome! Let's set things up</h1>
        <p className="muted">Create your organization and the first account. You can add projects right after.</p>
        {error && (
          <p className="banner banner-error" role="alert">
            {error}
          </p>
        )}
        <label className="field">
          <span>Organization name</span>
          <input name="organizationName" required value={organizationName} onChange={(e) => setOrganizationName(e.target.value)} />
        </label>
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            aria-describedby="setup-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <small id="setup-password-hint" className="muted">
            At least 8 characters.
          </small>
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </main>
  );
}

import { useState } from 'react';
import { AuthCard } from '../components/AuthCard.tsx';
import { APP_BASE } from '../paths.ts';
import { useSession } from '../session.tsx';

export function SignInPage({ notice }: { notice?: string }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <AuthCard
      titleId="signin-title"
      title="Sign in"
      action={() => signIn(email, password)}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      notice={
        notice && (
          <p className="banner banner-info" role="status">
            {notice}
          </p>
        )
      }
      footer={
        <>
        <p className="small">
          <a href={`${APP_BASE}/forgot`}>Forgot password?</a>
        </p>
        <p className="muted small">
          No account? Ask an owner of your organization for an invitation link, or an operator can create one with{' '}
          <code>npx eventlog user create &lt;email&gt; --org &lt;orgId&gt;</code>; the organization id is on the Organization page of
          the dashboard (and in the output of <code>eventlog org create</code>).
        </p>
        </>
      }
    >
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
    </AuthCard>
  );
}

export function SetupPage() {
  const { setup } = useSession();
  const [organizationName, setOrganizationName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <AuthCard
      titleId="setup-title"
      title="Welcome! Let's set things up"
      action={() => setup({ organizationName, email, password })}
      submitLabel="Create organization"
      busyLabel="Creating…"
      intro={<p className="muted">Create your organization and the first account. You can add projects right after.</p>}
    >
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
    </AuthCard>
  );
}

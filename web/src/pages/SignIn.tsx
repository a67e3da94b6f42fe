import { useEffect, useState } from 'react';
import { AuthCard, NewPasswordField } from '../components/AuthCard.tsx';
import * as api from '../generated/index.ts';
import { APP_BASE } from '../paths.ts';
import { useSession } from '../session.tsx';
import type { SignInMethods } from '../types.ts';

/** Without an answer from the server, the password form is the safe guess: it says why it failed. */
const PASSWORD_ONLY: SignInMethods = { password: true, oidc: null };

/** The sign-in methods, as the session check read them, or asked for here (after a sign-out). */
function useSignInMethods(known: SignInMethods | undefined): SignInMethods | null {
  const [methods, setMethods] = useState<SignInMethods | null>(known ?? null);
  useEffect(() => {
    if (known) return;
    let live = true;
    api.getSetupStatus({ quiet401: true }).then(
      (status) => live && setMethods(status.signIn),
      () => live && setMethods(PASSWORD_ONLY),
    );
    return () => {
      live = false;
    };
  }, [known]);
  return methods;
}

/**
 * A plain link, not a fetch: the identity provider's pages open in this tab and send it back signed in.
 * So its path is written by hand, one of the few exceptions to the generated calls (test/web/apiPaths.test.ts).
 */
function OidcButton({ name }: { name: string }) {
  return (
    <a className="button button-block" href="/api/oidc/start" data-testid="oidc-sign-in">
      Sign in with {name}
    </a>
  );
}

const NoAccount = () => (
  <p className="muted small">
    No account? Ask an owner of your organization for an invitation link, or an operator can create one with{' '}
    <code>npx eventlog user create &lt;email&gt; --org &lt;orgId&gt;</code>; the organization id is on the Organization page of the dashboard (and in the output
    of <code>eventlog org create</code>).
  </p>
);

/**
 * Why the identity provider's sign-in was refused, when the callback sent the browser here
 * (src/features/oidc/refusalPage.ts); read once and taken out of the address, so a reload or a
 * bookmark does not repeat it.
 */
function takeRefusal(): string | null {
  const params = new URLSearchParams(window.location.search);
  const reason = params.get('signin_error');
  if (reason === null) return null;
  params.delete('signin_error');
  const rest = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  return reason.slice(0, 300);
}

export function SignInPage({ notice, methods: known }: { notice?: string; methods?: SignInMethods }) {
  const methods = useSignInMethods(known);
  const [refusal] = useState(takeRefusal);
  const noticeBanner = refusal ? (
    <div className="banner banner-error" role="alert" data-testid="signin-refused">
      <p>
        <strong>You were not signed in.</strong> {refusal}.
      </p>
      <p>Try again below, with this account or another one.</p>
    </div>
  ) : (
    notice && (
      <p className="banner banner-info" role="status">
        {notice}
      </p>
    )
  );
  if (!methods) {
    return (
      <main className="auth-page" aria-busy="true">
        <div className="card auth-card">Loading…</div>
      </main>
    );
  }
  if (!methods.password) {
    // Password sign-in is off (OIDC_PASSWORD_SIGNIN=off): the identity provider is the only door.
    return (
      <main className="auth-page">
        <div className="card auth-card">
          <div className="auth-brand">
            <span className="brand-mark" aria-hidden="true" /> Eventlog
          </div>
          <h1 id="signin-title">Sign in</h1>
          {noticeBanner}
          {methods.oidc ? (
            <OidcButton name={methods.oidc} />
          ) : (
            <p className="banner banner-error" role="alert">
              Password sign-in is turned off on this server and no identity provider is set up. Ask the operator.
            </p>
          )}
          <NoAccount />
        </div>
      </main>
    );
  }
  return <PasswordSignIn notice={noticeBanner || undefined} oidc={methods.oidc} />;
}

function PasswordSignIn({ notice, oidc }: { notice?: React.ReactNode; oidc: string | null }) {
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
      intro={
        oidc && (
          <>
            <OidcButton name={oidc} />
            <p className="muted small auth-or">or with your email and password</p>
          </>
        )
      }
      notice={notice}
      footer={
        <>
          <p className="small">
            <a href={`${APP_BASE}/forgot`}>Forgot password?</a>
          </p>
          <NoAccount />
        </>
      }
    >
      <label className="field">
        <span>Email</span>
        <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label className="field">
        <span>Password</span>
        <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
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
      <NewPasswordField label="Password" value={password} onChange={setPassword} hint={{ id: 'setup-password-hint', text: 'At least 8 characters.' }} />
    </AuthCard>
  );
}

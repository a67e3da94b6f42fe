import { useSignedIn } from '../session.tsx';
import { ChangePassword } from './account/ChangePassword.tsx';
import { DigestForm } from './account/DigestForm.tsx';
import { ThemeChoice } from './account/ThemeChoice.tsx';
import './account/account.css';

/** "Your account": how the dashboard looks in this browser, the member's digest, and their password. */
export function AccountPage() {
  const email = useSignedIn().user.email;
  return (
    <main className="page page-narrow">
      <h1>Your account</h1>
      <p className="muted">Signed in as {email}.</p>
      <section aria-labelledby="appearance-title" className="account-section">
        <h2 id="appearance-title">Appearance</h2>
        <div className="card account-form">
          <ThemeChoice />
        </div>
      </section>
      <DigestForm email={email} />
      <ChangePassword />
    </main>
  );
}

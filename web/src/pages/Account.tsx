import { useSignedIn } from '../session.tsx';
import { ChangePassword } from './account/ChangePassword.tsx';
import { DigestForm } from './account/DigestForm.tsx';
import { NotificationSettings } from './account/NotificationSettings.tsx';
import { ThemeChoice } from './account/ThemeChoice.tsx';
import { browserZone, zoneChoices } from './account/TimeZoneField.tsx';
import './account/account.css';

/** "Your account": how the dashboard looks in this browser, the member's digest, what notifications reach them and when, and their password. */
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
      <section aria-labelledby="notifications-title" className="account-section">
        <h2 id="notifications-title">Notifications</h2>
        <p className="muted">What your browser notifications (and, if you like, your email) receive, and when they stay quiet.</p>
        <NotificationSettings browserZone={browserZone()} zones={zoneChoices} />
      </section>
      <ChangePassword />
    </main>
  );
}

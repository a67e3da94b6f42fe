import { useState } from 'react';
import { AuthCard } from '../components/AuthCard.tsx';
import { useSession } from '../session.tsx';

/** /app/accept/<token>: the invitation link. Setting a password creates the account and signs in. */
export function AcceptPage({ token }: { token: string }) {
  const { acceptInvitation } = useSession();
  const [password, setPassword] = useState('');
  return (
    <AuthCard
      titleId="accept-title"
      title="Join your team"
      action={() => acceptInvitation(token, password)}
      submitLabel="Accept and sign in"
      busyLabel="Joining…"
      intro={<p className="muted">Choose a password (at least 8 characters) to accept the invitation and sign in.</p>}
    >
      <label className="field">
        <span>Password</span>
        <input type="password" name="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
    </AuthCard>
  );
}

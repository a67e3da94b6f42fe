import { type FormEvent, useState } from 'react';
import { useFieldErrors } from '../../components/FieldError.tsx';
import * as api from '../../generated/index.ts';

/** Words for the server's refusals, beside the field they are about (POST /api/me/password). */
function inWords(message: string): string {
  if (/^currentPassword is not/.test(message)) return 'This is not your current password.';
  const short = /^newPassword must be at least (\d+) characters/.exec(message);
  if (short) return `Use at least ${short[1]} characters.`;
  return message;
}

/** A new password while signed in: the current one first; other devices are signed out. */
export function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const fields = useFieldErrors({ current: ['currentPassword'], next: ['newPassword'] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    fields.clear();
    setDone(false);
    setRefusal(null);
    if (!current) return fields.set('current', 'Enter your current password.');
    if (next.length < 8) return fields.set('next', 'Use at least 8 characters.');
    setBusy(true);
    try {
      await api.changePassword({ body: { currentPassword: current, newPassword: next } });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      if (/^currentPassword/.test(message)) fields.set('current', inWords(message));
      else if (/^newPassword/.test(message)) fields.set('next', inWords(message));
      else setRefusal(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="password-title" className="account-section">
      <h2 id="password-title">Password</h2>
      {done && (
        <p className="banner banner-info" role="status" data-testid="password-changed">
          Password changed. Other devices where you were signed in are signed out.
        </p>
      )}
      {refusal && (
        <p className="banner banner-error" role="alert">
          The password was not changed: {refusal}
        </p>
      )}
      <form className="card account-form" onSubmit={(e) => void submit(e)} aria-label="Change password" noValidate>
        <div className="account-row">
          <label className="field">
            <span>Current password</span>
            <input
              type="password"
              name="currentPassword"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              {...fields.describe('current')}
            />
            {fields.message('current')}
          </label>
          <label className="field">
            <span>New password</span>
            <input
              type="password"
              name="newPassword"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
              {...fields.describe('next')}
            />
            {fields.message('next')}
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}

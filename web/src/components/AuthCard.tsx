import { type FormEvent, type ReactNode, useState } from 'react';
import { describeError } from '../api.ts';

interface AuthCardProps {
  /** The id of the title, which names the form. */
  titleId: string;
  title: string;
  /** What happens on submit; a failure is shown above the fields and the form can be sent again. */
  action: () => Promise<unknown>;
  /** The button's words, at rest and while the action runs. */
  submitLabel: string;
  busyLabel: string;
  /** Shown under the title. */
  intro?: ReactNode;
  /** Shown under the title until a try fails. */
  notice?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * The card of the signed-out pages (sign in, first-run setup, accepting an invitation): the brand,
 * a title, the error of the last try, the fields, and a submit button that says when it is busy.
 * After a success the session changes and another page takes its place.
 */
export function AuthCard({ titleId, title, action, submitLabel, busyLabel, intro, notice, children, footer }: AuthCardProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={(event) => void submit(event)} aria-labelledby={titleId}>
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Eventlog
        </div>
        <h1 id={titleId}>{title}</h1>
        {intro}
        {!error && notice}
        {error && (
          <p className="banner banner-error" role="alert">
            {error}
          </p>
        )}
        {children}
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {footer}
      </form>
    </main>
  );
}

interface NewPasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Words under the field, tied to it for screen readers. */
  hint?: { id: string; text: string };
}

/** The password a signed-out page sets (setup, an invitation, a reset): at least 8 characters, offered to password managers as new. */
export function NewPasswordField({ label, value, onChange, hint }: NewPasswordFieldProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={8}
        aria-describedby={hint?.id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <small id={hint.id} className="muted">
          {hint.text}
        </small>
      )}
    </label>
  );
}

import { useId, useState } from 'react';
import { CopyButton } from './CopyButton.tsx';

/** How a secret looks while hidden: its length is not given away either. */
const MASK = '••••••••••••••••••••••••';

/**
 * A secret (a new API key, a signing secret, a hook URL, an invitation link), masked until the
 * person asks to see it, so a screen share or a glance over the shoulder shows nothing. Copy
 * works while masked: copying is what a secret is usually shown for.
 */
export function Secret({
  value,
  label,
  what = label,
  testId,
  autoFocus,
}: {
  value: string;
  /** Names the field for screen readers ("Signing secret for Slack"). */
  label: string;
  /** Names the secret on the buttons ("Copy signing secret of Slack"); the label by default. */
  what?: string;
  testId?: string;
  autoFocus?: boolean;
}) {
  const [revealed, setRevealed] = useState(false);
  const id = useId();
  return (
    <div className="secret-line">
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      {/* A password field keeps the value selectable by code (and tests) while the screen shows dots. */}
      <input
        id={id}
        className="mono"
        type={revealed ? 'text' : 'password'}
        readOnly
        value={value}
        autoComplete="off"
        spellCheck={false}
        onFocus={(e) => revealed && e.target.select()}
        data-testid={testId}
        data-revealed={revealed}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
      />
      <button type="button" className="button button-small" aria-pressed={revealed} onClick={() => setRevealed((shown) => !shown)}>
        {revealed ? 'Hide' : 'Reveal'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <CopyButton text={value} what={what} />
    </div>
  );
}

/** A secret inside other text (an example command): the secret part shows as dots until revealed. */
export function maskSecret(text: string, secret: string): string {
  return secret ? text.split(secret).join(MASK) : text;
}

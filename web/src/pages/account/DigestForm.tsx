import { type FormEvent, useEffect, useState } from 'react';
import { describeError } from '../../api.ts';
import { Skeleton } from '../../components/Skeleton.tsx';
import * as api from '../../generated/index.ts';
import type { DigestSettings } from '../../types.ts';
import { TimeZoneField, browserZone, isKnownZone } from './TimeZoneField.tsx';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const FREQUENCIES = [
  ['daily', 'Daily'],
  ['weekly', 'Weekly, on Mondays'],
  ['off', 'Off'],
] as const;

/** The signed-in member's digest (daily, weekly or off, at an hour in a time zone) and a preview by mail. */
export function DigestForm({ email }: { email: string }) {
  const [settings, setSettings] = useState<DigestSettings | null>(null);
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .getDigest()
      .then((saved) => setSettings(saved.frequency === 'off' && saved.timeZone === 'UTC' ? { ...saved, timeZone: browserZone() } : saved))
      .catch((error: unknown) => setMessage({ tone: 'error', text: describeError(error) }));
  }, []);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ tone: 'info', text: await work() });
    } catch (error) {
      const text = describeError(error);
      if (/timeZone/.test(text)) setZoneError('Choose a time zone from the suggestions, like Europe/Berlin.');
      else setMessage({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!settings) return;
    if (!isKnownZone(settings.timeZone)) return setZoneError('Choose a time zone from the suggestions, like Europe/Berlin.');
    void run(async () => {
      setSettings(await api.setDigest({ body: settings }));
      return settings.frequency === 'off'
        ? 'Saved: no digest.'
        : `Saved: a ${settings.frequency} digest at ${String(settings.hour).padStart(2, '0')}:00 (${settings.timeZone}).`;
    });
  };

  const sendNow = () =>
    void run(async () => {
      await api.sendDigestNow();
      return `A digest is on its way to ${email}.`;
    });

  return (
    <section aria-labelledby="digest-title" className="account-section">
      <h2 id="digest-title">Email digest</h2>
      <p className="muted">A short summary of every project by email: events per category, notify events, alerts and insights.</p>
      {message && (
        <p className={`banner ${message.tone === 'error' ? 'banner-error' : 'banner-info'}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {!settings ? (
        <Skeleton rows={3} what="your digest" />
      ) : (
        <form className="card account-form" onSubmit={save} aria-label="Email digest" noValidate>
          <fieldset className="field">
            <legend>How often</legend>
            <div className="radio-row">
              {FREQUENCIES.map(([frequency, label]) => (
                <label key={frequency} className="radio">
                  <input
                    type="radio"
                    name="frequency"
                    value={frequency}
                    checked={settings.frequency === frequency}
                    onChange={() => setSettings({ ...settings, frequency })}
                  />
                  <span>{label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="account-row">
            <label className="field">
              <span>At</span>
              <select name="hour" value={settings.hour} onChange={(e) => setSettings({ ...settings, hour: Number(e.target.value) })}>
                {HOURS.map((hour) => (
                  <option key={hour} value={hour}>
                    {String(hour).padStart(2, '0')}:00
                  </option>
                ))}
              </select>
            </label>
            <TimeZoneField
              value={settings.timeZone}
              error={zoneError}
              onChange={(timeZone) => {
                setZoneError(null);
                setSettings({ ...settings, timeZone });
              }}
            />
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              Save
            </button>
            <button type="button" className="button" disabled={busy} onClick={sendNow}>
              Send me one now
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

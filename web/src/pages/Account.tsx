import { type FormEvent, useEffect, useState } from 'react';
import { describeError, get, post, put } from '../api.ts';
import { Skeleton } from '../components/Skeleton.tsx';
import { useSignedIn } from '../session.tsx';
import type { DigestSettings } from '../types.ts';
import { NotificationSettings } from './account/NotificationSettings.tsx';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA zone the browser knows, with the chosen one kept even when it is not listed. */
function zones(current: string): string[] {
  const known = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([current, 'UTC', ...known])].sort();
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** "Your account": the signed-in member's digest (daily, weekly or off, at an hour in a time zone) and a preview. */
export function AccountPage() {
  const email = useSignedIn().user.email;
  const [settings, setSettings] = useState<DigestSettings | null>(null);
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    get<DigestSettings>('/api/me/digest')
      .then((saved) => setSettings(saved.frequency === 'off' && saved.timeZone === 'UTC' ? { ...saved, timeZone: browserZone() } : saved))
      .catch((error: unknown) => setMessage({ tone: 'error', text: describeError(error) }));
  }, []);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ tone: 'info', text: await work() });
    } catch (error) {
      setMessage({ tone: 'error', text: describeError(error) });
    } finally {
      setBusy(false);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!settings) return;
    void run(async () => {
      setSettings(await put<DigestSettings>('/api/me/digest', settings));
      return settings.frequency === 'off' ? 'Saved: no digest.' : `Saved: a ${settings.frequency} digest at ${String(settings.hour).padStart(2, '0')}:00 (${settings.timeZone}).`;
    });
  };

  const sendNow = () =>
    void run(async () => {
      await post('/api/me/digest/send');
      return `A digest is on its way to ${email}.`;
    });

  return (
    <main className="page page-narrow">
      <h1>Your account</h1>
      <p className="muted">Signed in as {email}.</p>
      <h2>Email digest</h2>
      <p className="muted">A short summary of every project by email: events per category, notify events, alerts and insights.</p>
      {message && (
        <p className={`banner ${message.tone === 'error' ? 'banner-error' : 'banner-info'}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {!settings ? (
        <Skeleton rows={3} what="your digest" />
      ) : (
        <form className="stack" onSubmit={save} aria-label="Email digest">
          <fieldset className="field">
            <legend>How often</legend>
            {(['daily', 'weekly', 'off'] as const).map((frequency) => (
              <label key={frequency} className="radio">
                <input
                  type="radio"
                  name="frequency"
                  value={frequency}
                  checked={settings.frequency === frequency}
                  onChange={() => setSettings({ ...settings, frequency })}
                />{' '}
                {frequency === 'daily' ? 'Daily' : frequency === 'weekly' ? 'Weekly, on Mondays' : 'Off'}
              </label>
            ))}
          </fieldset>
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
          <label className="field">
            <span>Time zone</span>
            <select name="timeZone" value={settings.timeZone} onChange={(e) => setSettings({ ...settings, timeZone: e.target.value })}>
              {zones(settings.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          </label>
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
      <h2>Notifications</h2>
      <p className="muted">What your browser notifications (and, if you like, your email) receive, and when they stay quiet.</p>
      <NotificationSettings browserZone={browserZone()} zones={zones} />
    </main>
  );
}

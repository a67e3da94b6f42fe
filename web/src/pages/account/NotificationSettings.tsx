import { type FormEvent, useEffect, useState } from 'react';
import { describeError } from '../../api.ts';
import { Skeleton } from '../../components/Skeleton.tsx';
import { WEEKDAY_SHORT, quietHoursInWords, saveNotificationPreferences, snoozedUntil, useNotificationPreferences } from '../../notificationPreferences.ts';
import { useProjects } from '../../projects.tsx';
import type { NotificationPreferences, QuietHours } from '../../types.ts';

type Level = 'all' | 'alerts' | 'none';
const LEVELS: Array<[Level, string]> = [
  ['all', 'Every notification'],
  ['alerts', 'Alerts only'],
  ['none', 'Nothing'],
];

/**
 * The Account page's Notifications section: a level per project, an email copy, and quiet hours
 * on a week grid with the window in words. Notifications due while quiet or snoozed are held and
 * arrive as one summary when it ends.
 */
export function NotificationSettings({ browserZone, zones }: { browserZone: string; zones: (current: string) => string[] }) {
  const { prefs, error } = useNotificationPreferences();
  const { projects } = useProjects();
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);
  const [quietOn, setQuietOn] = useState(false);
  const [quiet, setQuiet] = useState<QuietHours>({ timeZone: browserZone, start: '22:00', end: '07:00', days: [1, 2, 3, 4, 5] });
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!prefs || draft) return;
    setDraft(prefs);
    setQuietOn(prefs.quietHours !== null);
    if (prefs.quietHours) setQuiet(prefs.quietHours);
  }, [prefs, draft]);

  if (error && !draft)
    return (
      <p className="banner banner-error" role="alert">
        {describeError(error)}
      </p>
    );
  if (!draft) return <Skeleton rows={3} what="your notification settings" />;

  const setLevel = (projectId: string, level: Level) => {
    const next = { ...draft.projects };
    if (level === 'all') delete next[projectId];
    else next[projectId] = level;
    setDraft({ ...draft, projects: next });
  };
  const toggleDay = (day: number) =>
    setQuiet({ ...quiet, days: quiet.days.includes(day) ? quiet.days.filter((d) => d !== day) : [...quiet.days, day].sort((a, b) => a - b) });

  const save = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    saveNotificationPreferences({ ...draft, snoozedUntil: prefs?.snoozedUntil ?? null, quietHours: quietOn ? quiet : null })
      .then((saved) => {
        setDraft(saved);
        setMessage({ tone: 'info', text: saved.quietHours ? `Saved. ${quietHoursInWords(saved.quietHours)}.` : 'Saved.' });
      })
      .catch((cause: unknown) => setMessage({ tone: 'error', text: describeError(cause) }))
      .finally(() => setBusy(false));
  };
  const until = snoozedUntil(prefs);

  return (
    <form className="stack" onSubmit={save} aria-label="Notifications">
      {message && (
        <p className={`banner ${message.tone === 'error' ? 'banner-error' : 'banner-info'}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {until && <p className="muted">Snoozed until {until.toLocaleString()} (change it from the top bar).</p>}
      <fieldset className="field project-levels">
        <legend>What reaches you, per project</legend>
        {(projects ?? []).map((project) => (
          <label key={project.id} className="field">
            <span>{project.name}</span>
            <select value={draft.projects[project.id] ?? 'all'} onChange={(e) => setLevel(project.id, e.target.value as Level)}>
              {LEVELS.map(([level, words]) => (
                <option key={level} value={level}>
                  {words}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      <label className="toggle">
        <input type="checkbox" name="emailCopy" checked={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.checked })} />
        <span>Also send each notification to my email address</span>
      </label>
      <fieldset className="field">
        <legend>Quiet hours</legend>
        <label className="toggle">
          <input type="checkbox" name="quietHours" checked={quietOn} onChange={(e) => setQuietOn(e.target.checked)} />
          <span>Hold notifications during quiet hours</span>
        </label>
        {quietOn && (
          <>
            <div className="week-grid" role="group" aria-label="Days quiet hours start on">
              {WEEKDAY_SHORT.map((name, index) => (
                <label key={name}>
                  <input type="checkbox" checked={quiet.days.includes(index + 1)} onChange={() => toggleDay(index + 1)} /> {name}
                </label>
              ))}
            </div>
            <label className="field">
              <span>From</span>
              <input type="time" name="quietStart" value={quiet.start} required onChange={(e) => setQuiet({ ...quiet, start: e.target.value })} />
            </label>
            <label className="field">
              <span>Until</span>
              <input type="time" name="quietEnd" value={quiet.end} required onChange={(e) => setQuiet({ ...quiet, end: e.target.value })} />
            </label>
            <label className="field">
              <span>Time zone</span>
              <select name="quietTimeZone" value={quiet.timeZone} onChange={(e) => setQuiet({ ...quiet, timeZone: e.target.value })}>
                {zones(quiet.timeZone).map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
            </label>
            <p className="muted" aria-live="polite">
              {quiet.days.length > 0 ? `${quietHoursInWords(quiet)}.` : 'Choose at least one day.'} Notifications held meanwhile arrive as one summary when it
              ends; critical alerts come through at once.
            </p>
          </>
        )}
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          Save notifications
        </button>
      </div>
    </form>
  );
}

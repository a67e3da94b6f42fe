import { useEffect, useRef, useState } from 'react';
import { quietNow, saveNotificationPreferences, snoozedUntil, useNotificationPreferences } from '../notificationPreferences.ts';
import { useToast } from './Toasts.tsx';
import './snoozeMenu.css';

const HOUR = 3600;

/** Tomorrow at 08:00 in the browser's zone, as Unix seconds. */
function tomorrowMorning(): number {
  const at = new Date();
  at.setDate(at.getDate() + 1);
  at.setHours(8, 0, 0, 0);
  return Math.floor(at.getTime() / 1000);
}

const timeFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });

/**
 * The top bar's snooze: 1 hour, until tomorrow 08:00, a week, or off. The button says when
 * notifications are snoozed (until when) or quiet; held notifications arrive as one summary after.
 */
export function SnoozeMenu() {
  const { prefs } = useNotificationPreferences();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  if (!prefs) return null;
  const until = snoozedUntil(prefs);
  const quiet = !until && prefs.quietHours !== null && quietNow(prefs.quietHours);
  const label = until ? `Snoozed until ${timeFormat.format(until)}` : quiet ? 'Quiet hours' : 'Notifications on';

  const snooze = async (seconds: number | null) => {
    setOpen(false);
    try {
      await saveNotificationPreferences({ ...prefs, snoozedUntil: seconds });
    } catch (error) {
      toast.error(error, 'Could not change the snooze');
    }
  };
  const now = () => Math.floor(Date.now() / 1000);

  return (
    <div
      className="snooze"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          root.current?.querySelector<HTMLElement>('.snooze-toggle')?.focus();
        }
      }}
    >
      <button
        type="button"
        className={`button button-small snooze-toggle${until || quiet ? ' snooze-active' : ''}`}
        aria-expanded={open}
        aria-controls="snooze-options"
        onClick={() => setOpen((value) => !value)}
      >
        {label}
      </button>
      {open && (
        <div className="snooze-options" id="snooze-options" role="group" aria-label="Snooze notifications">
          <button type="button" className="button button-small" onClick={() => void snooze(now() + HOUR)}>
            Snooze for 1 hour
          </button>
          <button type="button" className="button button-small" onClick={() => void snooze(tomorrowMorning())}>
            Until tomorrow 08:00
          </button>
          <button type="button" className="button button-small" onClick={() => void snooze(now() + 7 * 24 * HOUR)}>
            For a week
          </button>
          <button type="button" className="button button-small" disabled={!until} onClick={() => void snooze(null)}>
            Snooze off
          </button>
        </div>
      )}
    </div>
  );
}

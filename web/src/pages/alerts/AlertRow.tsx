import { useEffect, useRef, useState } from 'react';
import { RelativeTime, exactTime } from '../../components/Time.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { Alert, AlertHistoryPage } from '../../types.ts';
import { AlertCount, AlertHistory, WithCode, clockOrDate } from './AlertFacts.tsx';
import { conditionInWords, isMuted } from './alertWords.ts';

/** The condition as a sentence; "fewer than 1" reads as the dead man's switch it is. */
function sentenceOf(alert: Alert): string {
  const words = conditionInWords(alert);
  if (alert.condition.count === 'fewerThan' && alert.condition.threshold === 1) {
    return `Fires when no ${words.replace(/^fewer than 1 /, '').replace(/ in (\S+ \S+)$/, ' arrives for $1')} (a dead man’s switch).`;
  }
  return `Fires when there are ${words}.`;
}

const MUTES = [
  ['3600', '1 hour'],
  ['28800', '8 hours'],
  ['86400', '24 hours'],
  ['forever', 'Until unmuted'],
] as const;
/** "Until unmuted": the last second the API takes. */
const FOREVER = 253_402_300_799;

interface AlertRowProps {
  projectId: string;
  alert: Alert;
  onChanged: (alert: Alert) => void;
  onEdit: (alert: Alert) => void;
  onDelete: (alert: Alert) => void;
  /** The alert a link named (`?alert=<id>`, from the projects page or a mail): shown and focused. */
  linked?: boolean;
  /** The link asked to mute it (`&mute=1`): the Mute choice takes focus; nothing changes until one is made. */
  offerMute?: boolean;
}

/** One alert: its state, condition in words, count and last change; mute, enable, edit, history. */
export function AlertRow({ projectId, alert, onChanged, onEdit, onDelete, linked = false, offerMute = false }: AlertRowProps) {
  const toast = useToast();
  const heading = useRef<HTMLHeadingElement>(null);
  const muteChoice = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (!linked) return;
    heading.current?.scrollIntoView({ block: 'center' });
    (offerMute && muteChoice.current ? muteChoice.current : heading.current)?.focus({ preventScroll: true });
    // Once, when the link is followed: not again as the row updates.
  }, [linked]);
  const [history, setHistory] = useState<AlertHistoryPage | null>(null);
  const muted = isMuted(alert);
  const firing = alert.state === 'firing';
  const path = { alertId: alert.id };

  const act = async (change: Promise<Alert>, failure: string) => {
    try {
      onChanged(await change);
    } catch (error) {
      toast.error(error, failure);
    }
  };
  const mute = (choice: string) => {
    if (!choice) return;
    const until = choice === 'forever' ? FOREVER : Math.floor(Date.now() / 1000) + Number(choice);
    void act(api.muteAlert({ path, body: { until } }), 'Could not mute the alert');
  };
  const setEnabled = async (enabled: boolean) => {
    try {
      onChanged(await api.updateAlert({ path, body: { enabled } }));
    } catch (error) {
      toast.error(error, enabled ? 'Could not enable the alert' : 'Could not disable the alert');
    }
  };
  const toggleHistory = async () => {
    if (history) return setHistory(null);
    try {
      setHistory(await api.listAlertHistory({ path, query: { limit: '20' } }));
    } catch (error) {
      toast.error(error, 'Could not load the history');
    }
  };

  return (
    <li className={`card alert-row${firing ? ' alert-firing' : ''}${linked ? ' alert-linked' : ''}`} data-testid="alert-row" data-alert-id={alert.id}>
      <div className="alert-head">
        <span className={`badge ${firing ? 'badge-firing' : 'badge-ok'}`} data-testid="alert-state">
          {firing ? 'Firing' : 'OK'}
        </span>
        <h2 className="alert-name" ref={heading} tabIndex={linked ? -1 : undefined}>
          {alert.name}
        </h2>
        {!alert.enabled && <span className="badge">Disabled</span>}
        {muted && (
          <span className="badge badge-plain" data-testid="alert-muted" title={exactTime(alert.mutedUntil!)}>
            Muted {Date.parse(alert.mutedUntil!) >= FOREVER * 1000 ? 'until unmuted' : `until ${clockOrDate(alert.mutedUntil!)}`}
          </span>
        )}
      </div>
      <p className="alert-condition">
        <WithCode text={sentenceOf(alert)} />
      </p>
      <p className="muted alert-facts">
        <AlertCount projectId={projectId} alert={alert} /> · {firing ? 'Firing' : 'OK'} since <RelativeTime iso={alert.stateSince} />
      </p>
      {linked && offerMute && (
        <p className="alert-mute-offer" id={`mute-offer-${alert.id}`} data-testid="alert-mute-offer">
          {muted ? 'This alert is muted already.' : 'Choose how long to mute this alert: it stays quiet until then, and its state still shows here.'}
        </p>
      )}
      <div className="alert-actions">
        <button type="button" className="button button-small" onClick={() => onEdit(alert)}>
          Edit
        </button>
        {muted ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => void act(api.muteAlert({ path, body: { until: null } }), 'Could not unmute the alert')}
          >
            Unmute
          </button>
        ) : (
          <label className="field-inline">
            <span className="visually-hidden">Mute {alert.name}</span>
            <select
              name="mute"
              value=""
              ref={muteChoice}
              aria-describedby={linked && offerMute ? `mute-offer-${alert.id}` : undefined}
              onChange={(e) => mute(e.target.value)}
            >
              <option value="">Mute…</option>
              {MUTES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" className="button button-small" onClick={() => void setEnabled(!alert.enabled)}>
          {alert.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="button button-small" aria-expanded={history !== null} onClick={() => void toggleHistory()}>
          History
        </button>
        <button type="button" className="button button-small button-danger-outline" onClick={() => onDelete(alert)}>
          Delete
        </button>
      </div>
      {history && <AlertHistory alert={alert} history={history} />}
    </li>
  );
}

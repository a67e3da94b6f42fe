import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { isMuted } from './alertWords.ts';
import { useProjectAlerts } from './useProjectAlerts.ts';
import './alerts.css';

/** The tab's own data goes first: a project opens with its feed request right after the session. */
const AFTER_THE_TAB_MS = 300;
const DISMISSED_KEY = 'eventlog.dismissedFirings';

/** The firings closed in this tab: alert id and the time it began firing, so a new firing shows again. */
function dismissed(): string[] {
  try {
    return JSON.parse(window.sessionStorage.getItem(DISMISSED_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

/**
 * Above every tab of a project while one of its alerts fires (muted ones aside), as wide as the
 * page's content, until it resolves or is closed; on the Alerts tab it does not link to itself.
 */
export function FiringAlertsBanner({ projectId }: { projectId: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), AFTER_THE_TAB_MS);
    return () => clearTimeout(timer);
  }, []);
  return ready ? <FiringAlerts projectId={projectId} /> : null;
}

function FiringAlerts({ projectId }: { projectId: string }) {
  const { data } = useProjectAlerts(projectId);
  const [location] = useLocation();
  const [closed, setClosed] = useState(dismissed);
  const firingKey = (alert: { id: string; stateSince: string }) => `${alert.id}@${alert.stateSince}`;
  const firing = (data ?? []).filter((alert) => alert.enabled && alert.state === 'firing' && !isMuted(alert) && !closed.includes(firingKey(alert)));
  if (firing.length === 0) return null;
  const close = () => {
    const next = [...closed, ...firing.map(firingKey)].slice(-100);
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // Storage refused: closed until the page is left.
    }
    setClosed(next);
  };
  return (
    <div className="firing-banner-wrap">
      <div className="banner banner-error" role="alert" data-testid="firing-alerts-banner">
        <span>
          {firing.length === 1 ? 'Alert' : 'Alerts'} firing: {firing.map((alert) => `“${alert.name}”`).join(', ')}
        </span>
        <span className="firing-banner-actions">
          {!location.endsWith('/alerts') && (
            <Link href="/alerts" className="button button-small">
              Open Alerts
            </Link>
          )}
          <button type="button" className="button button-small" onClick={close}>
            Dismiss
          </button>
        </span>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useProjectAlerts } from './useProjectAlerts.ts';

/** The tab's own data goes first: a project opens with its feed request right after the session. */
const AFTER_THE_TAB_MS = 300;

/** Above every tab of a project while one of its alerts fires, until it resolves. */
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
  const firing = (data ?? []).filter((alert) => alert.enabled && alert.state === 'firing');
  if (firing.length === 0) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="firing-alerts-banner">
      <span>
        {firing.length === 1 ? 'Alert' : 'Alerts'} firing: {firing.map((alert) => `“${alert.name}”`).join(', ')}
      </span>
      <Link href="/alerts" className="button button-small">
        Open Alerts
      </Link>
    </div>
  );
}

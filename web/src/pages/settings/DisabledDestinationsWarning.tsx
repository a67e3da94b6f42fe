import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { get } from '../../api.ts';
import { RESYNC, useLive } from '../../live.tsx';
import type { Destination } from '../../types.ts';

const AFTER_THE_TAB_MS = 300;

/**
 * Shown above every tab of a project while one of its destinations is disabled automatically:
 * otherwise nobody notices until the notifications are missed. Links to the Settings rows.
 */
export function DisabledDestinationsWarning({ projectId }: { projectId: string }) {
  const [disabled, setDisabled] = useState<Destination[]>([]);
  const load = useCallback(async () => {
    try {
      const list = await get<Destination[]>(`/api/projects/${encodeURIComponent(projectId)}/destinations`);
      setDisabled(list.filter((destination) => destination.disabledReason !== null));
    } catch {
      // A warning that cannot load stays hidden; the Settings page shows the error itself.
    }
  }, [projectId]);
  // The tab's own data goes first: a project opens with its feed request right after the session.
  useEffect(() => {
    const timer = setTimeout(() => void load(), AFTER_THE_TAB_MS);
    return () => clearTimeout(timer);
  }, [load]);
  useLive((message) => {
    if (message.type.startsWith('destination.') || message.type === RESYNC) void load();
  });

  if (disabled.length === 0) return null;
  const names = disabled.map((destination) => `“${destination.name}”`).join(', ');
  return (
    <div className="banner banner-warning" role="alert" data-testid="disabled-destinations-warning">
      <span>
        {disabled.length === 1 ? 'Destination' : 'Destinations'} {names} {disabled.length === 1 ? 'was' : 'were'} disabled automatically after
        repeated failed deliveries: notifications are not reaching {disabled.length === 1 ? 'it' : 'them'}.
      </span>
      <Link href="/settings" className="button button-small">
        Open Settings
      </Link>
    </div>
  );
}

import { Link } from 'wouter';
import { useResource } from '../../components/useResource.ts';
import * as api from '../../generated/index.ts';

const AFTER_THE_TAB_MS = 300;

/**
 * Shown above every tab of a project while one of its destinations is disabled automatically:
 * otherwise nobody notices until the notifications are missed. Links to the Settings rows.
 */
export function DisabledDestinationsWarning({ projectId }: { projectId: string }) {
  // The tab's own data goes first: a project opens with its feed request right after the session.
  // A warning that cannot load stays hidden; the Settings page shows the error itself.
  const { data } = useResource(
    async (signal) => {
      await new Promise((resolve) => setTimeout(resolve, AFTER_THE_TAB_MS));
      signal.throwIfAborted();
      return api.listDestinations({ path: { projectId } }, { signal });
    },
    [projectId],
    { live: (message) => message.type.startsWith('destination.') },
  );
  const disabled = (data ?? []).filter((destination) => destination.disabledReason !== null);

  if (disabled.length === 0) return null;
  const names = disabled.map((destination) => `“${destination.name}”`).join(', ');
  return (
    <div className="banner banner-warning" role="alert" data-testid="disabled-destinations-warning">
      <span>
        {disabled.length === 1 ? 'Destination' : 'Destinations'} {names} {disabled.length === 1 ? 'was' : 'were'} disabled automatically after repeated failed
        deliveries: notifications are not reaching {disabled.length === 1 ? 'it' : 'them'}.
      </span>
      <Link href="/settings" className="button button-small">
        Open Settings
      </Link>
    </div>
  );
}

import { useEffect } from 'react';
import { useResource } from '../../components/useResource.ts';
import * as api from '../../generated/index.ts';

/** How often the alerts are read again while nothing is heard: a window can close without any event. */
const REFRESH_MS = 5000;

/**
 * The project's alerts, kept current: an alert's transition writes an event (announced on the
 * live feed), and a window that closes writes one too, so a read after new events and a slow
 * refresh keep states within seconds of the server's.
 */
export function useProjectAlerts(projectId: string) {
  const loaded = useResource((signal) => api.listAlerts({ path: { projectId } }, { signal }), [projectId], {
    live: (message) => message.type === 'event.created',
  });
  const { reload } = loaded;
  useEffect(() => {
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return loaded;
}

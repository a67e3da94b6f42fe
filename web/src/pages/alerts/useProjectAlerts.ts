import { useCallback, useEffect, useRef } from 'react';
import { RESYNC, useLive } from '../../live.tsx';
import type { Alert } from '../../types.ts';
import { useLoaded } from '../../useLoaded.ts';

/** How often the alerts are read again while nothing is heard: a window can close without any event. */
const REFRESH_MS = 5000;
/** Events arriving in a burst are answered with one read this long after the first. */
const SETTLE_MS = 1000;

/**
 * The project's alerts, kept current: an alert's transition writes an event (announced on the
 * live feed), and a window that closes writes one too, so a read after new events and a slow
 * refresh keep states within seconds of the server's.
 */
export function useProjectAlerts(projectId: string) {
  const loaded = useLoaded<Alert[]>(`/api/projects/${encodeURIComponent(projectId)}/alerts`);
  const { reload } = loaded;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const soon = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void reload();
    }, SETTLE_MS);
  }, [reload]);
  useLive((message) => {
    if (message.type === 'event.created' || message.type === RESYNC) soon();
  });
  useEffect(() => {
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => {
      clearInterval(timer);
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
    };
  }, [reload]);
  return loaded;
}

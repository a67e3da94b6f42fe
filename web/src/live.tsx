import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveMessage } from './types.ts';

type Listener = (message: LiveMessage) => void;
type LiveStatus = 'connecting' | 'open' | 'retrying';

/** Sent to listeners after the stream comes back, since anything in between was missed. */
export const RESYNC = 'live.resync';

// EventSource has no wildcard listener, so every type the server sends is named here.
const MESSAGE_TYPES = [
  'event.created',
  'event.deleted',
  'event.favorited',
  'insight.upserted',
  'insight.deleted',
  'import.completed',
  'project.created',
  'hook.created',
  'hook.updated',
  'hook.deleted',
  'destination.created',
  'destination.updated',
  'destination.deleted',
  'message',
];

const RETRY_MS = [2000, 5000, 15000, 30000];

interface LiveApi {
  subscribe: (listener: Listener) => () => void;
  status: LiveStatus;
}

const LiveContext = createContext<LiveApi | null>(null);

/** One EventSource per open project, shared by every page of that project. */
export function LiveProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let everOpened = false;
    let stopped = false;

    const dispatch = (message: LiveMessage) => {
      for (const listener of listeners.current) listener(message);
    };
    const onMessage = (event: MessageEvent<string>) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(event.data) as LiveMessage;
      } catch {
        return;
      }
      if (!message || typeof message.type !== 'string') message = { ...message, type: event.type };
      if (message.projectId && message.projectId !== projectId) return;
      dispatch(message);
    };

    const connect = () => {
      setStatus(everOpened ? 'retrying' : 'connecting');
      // Written by hand, one of the few exceptions to the generated calls (test/web/apiPaths.test.ts): the stream is
      // read by EventSource, not fetch, and GET /api/live is hidden from the OpenAPI document.
      source = new EventSource(`/api/live?project=${encodeURIComponent(projectId)}`, { withCredentials: true });
      for (const type of MESSAGE_TYPES) source.addEventListener(type, onMessage as EventListener);
      source.onopen = () => {
        if (everOpened || failures > 0) dispatch({ type: RESYNC, organizationId: '', projectId });
        everOpened = true;
        failures = 0;
        setStatus('open');
      };
      source.onerror = () => {
        if (stopped || !source) return;
        // CONNECTING means the browser is already retrying on its own; CLOSED means it gave up
        // (an error status or a wrong content type), so retrying is on us.
        if (source.readyState === EventSource.CLOSED) {
          source.close();
          const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 30000;
          failures += 1;
          setStatus('retrying');
          retryTimer = setTimeout(connect, delay);
        } else {
          setStatus('retrying');
        }
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [projectId]);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);
  const api = useMemo<LiveApi>(() => ({ status, subscribe }), [status, subscribe]);
  return <LiveContext.Provider value={api}>{children}</LiveContext.Provider>;
}

/** Calls the latest `listener` for every live message of the current project. */
export function useLive(listener: Listener): void {
  const live = useContext(LiveContext);
  const latest = useRef(listener);
  latest.current = listener;
  const subscribe = live?.subscribe;
  useEffect(() => subscribe?.((message) => latest.current(message)), [subscribe]);
}

export function useLiveStatus(): LiveStatus | null {
  return useContext(LiveContext)?.status ?? null;
}

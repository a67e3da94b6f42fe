import { type DependencyList, type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import { describeError, isAbort } from '../api.ts';
import { RESYNC, useLive } from '../live.tsx';
import type { LiveMessage } from '../types.ts';

/**
 * A burst of live messages (an import, a busy stream) is answered with one load this long after
 * the first message: every page refreshes by the same rule, so none hammers the server and none
 * starves, and the load that follows a write is never more than this late.
 */
const LIVE_SETTLE_MS = 1000;

interface Resource<T> {
  /** Null until the first answer; kept while a later load is on its way, so a page does not blink. */
  data: T | null;
  /** What went wrong with the last load, in words; null after a good one. */
  error: string | null;
  loading: boolean;
  /** Loads again (after a write whose answer does not say what changed, or from a Try again button). */
  reload: () => Promise<void>;
  /** Changes the data in place, for a write whose answer says what changed. */
  setData: Dispatch<SetStateAction<T | null>>;
}

interface ResourceOptions {
  /**
   * Which live messages make the data stale. A resync (the stream came back after a gap) always
   * does, since anything in between was missed.
   */
  live?: (message: LiveMessage) => boolean;
}

/**
 * The dashboard's one way to load what a page shows: `load` runs when `deps` change, on `reload()`
 * and, with `live`, after matching live messages. Only the newest load may answer: an older
 * one that comes back late (a slow filter the person already changed) is aborted and ignored.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList, options: ResourceOptions = {}): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef<AbortController | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;

  // The caller's deps say when `load` is another load (a new project, a new filter).
  const reload = useCallback(async () => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    setLoading(true);
    try {
      const answer = await loadRef.current(controller.signal);
      if (latest.current !== controller) return;
      setData(answer);
      setError(null);
    } catch (failure) {
      if (latest.current !== controller || isAbort(failure)) return;
      setError(describeError(failure));
    }
    setLoading(false);
  }, deps);

  useEffect(() => {
    void reload();
    return () => latest.current?.abort();
  }, [reload]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const wanted = options.live;
  useLive((message) => {
    if (!wanted || (message.type !== RESYNC && !wanted(message))) return;
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void reload();
    }, LIVE_SETTLE_MS);
  });

  return { data, error, loading, reload, setData };
}

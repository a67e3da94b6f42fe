import { type Dispatch, type SetStateAction, useCallback, useEffect, useState } from 'react';
import { describeError, get } from './api.ts';

interface Loaded<T> {
  /** Null until the first answer. */
  data: T | null;
  /** What went wrong with the last load, in words; null after a good one. */
  error: string | null;
  /** Loads again (after a write that changes the list, or from a Retry button). */
  reload: () => Promise<void>;
  /** Changes the data in place, for a write whose answer says what changed. */
  setData: Dispatch<SetStateAction<T | null>>;
}

/** GETs `url` when the page mounts, keeping the answer or the error in words. */
export function useLoaded<T>(url: string): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await get<T>(url));
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  }, [url]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload, setData };
}

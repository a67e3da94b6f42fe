import { useCallback, useEffect, useState } from 'react';
import { ApiError, describeError, isAbort } from '../../api.ts';
import * as api from '../../generated/index.ts';
import type { AuditEntry } from '../../types.ts';

const PAGE_SIZE = 50;

interface AuditPages {
  /** null until the first page arrives. */
  entries: AuditEntry[] | null;
  nextCursor: string | null;
  loadingMore: boolean;
  /** The server's words for the last failure; `forbidden` when it answered 403 (not an owner). */
  error: string | null;
  forbidden: boolean;
  loadMore: () => Promise<void>;
}

/**
 * The audit log in keyset pages, newest first. The action filter is the server's (`?action=`), so
 * a rare action is found however far back it is; a new action starts again from the first page.
 */
export function useAuditPages(action: string, enabled: boolean): AuditPages {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forbidden, setForbidden] = useState(false);

  const fail = (failure: unknown) => {
    if (failure instanceof ApiError && failure.status === 403) setForbidden(true);
    else setError(describeError(failure));
  };

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setEntries(null);
    setError(null);
    api.listAudit({ query: { action, limit: String(PAGE_SIZE) } }, { signal: controller.signal }).then(
      (page) => {
        setEntries(page.entries);
        setNextCursor(page.nextCursor);
      },
      (failure: unknown) => {
        if (!isAbort(failure)) fail(failure);
      },
    );
    return () => controller.abort();
  }, [action, enabled]);

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await api.listAudit({ query: { action, limit: String(PAGE_SIZE), cursor: nextCursor } });
      setEntries((current) => [...(current ?? []), ...page.entries]);
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (failure) {
      fail(failure);
    } finally {
      setLoadingMore(false);
    }
  }, [action, nextCursor]);

  return { entries, nextCursor, loadingMore, error, forbidden, loadMore };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, describeError, isAbort } from '../../api.ts';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import { appPath } from '../../paths.ts';
import { forgetProject } from '../../projects.tsx';
import type { EventItem } from '../../types.ts';
import { type FeedQuery, filterQuery } from './FeedFilters.tsx';
import { mergeFirstPage } from './mergeFirstPage.ts';

const PAGE_SIZE = 50;

interface FeedSource extends FeedQuery {
  projectId: string;
  /** Unix seconds: show the events before this time (a linked event and its neighbours). */
  until: number | null;
}

function eventsQuery(source: FeedSource, cursor: string | null): api.ListEventsQuery {
  return {
    project: source.projectId,
    category: source.category ?? undefined,
    search: source.search,
    cursor: cursor ?? undefined,
    limit: String(PAGE_SIZE),
    until: source.until === null ? undefined : String(source.until),
    ...filterQuery(source),
  };
}

export type FeedStatus = 'loading' | 'ready' | 'error';

/**
 * The loaded events of the feed: the first page whenever the filters change, older pages on
 * demand, and the newest page merged in on request (live updates). Answers for older filters are
 * dropped.
 */
export function useEventFeed(source: FeedSource) {
  const toast = useToast();
  const [, navigate] = useLocation();
  const [events, setEventsState] = useState<EventItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<FeedStatus>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [reloadCount, setReloadCount] = useState(0);

  // Live messages and observers run outside React's render: they read the latest state here.
  const sourceRef = useRef(source);
  sourceRef.current = source;
  const eventsRef = useRef(events);
  const cursorRef = useRef(nextCursor);
  const generation = useRef(0);
  const loadingMoreRef = useRef(false);
  const refreshing = useRef(false);
  const refreshAgain = useRef<boolean | null>(null);

  const setEvents = useCallback((change: (list: EventItem[]) => EventItem[]) => {
    eventsRef.current = change(eventsRef.current);
    setEventsState(eventsRef.current);
  }, []);
  const setCursor = (cursor: string | null) => {
    cursorRef.current = cursor;
    setNextCursor(cursor);
  };

  const firstPageQuery = eventsQuery(source, null);
  // The query's text, not the object made on every render, says when the first page is another one.
  const firstPageKey = JSON.stringify(firstPageQuery);
  useEffect(() => {
    const current = ++generation.current;
    const controller = new AbortController();
    setStatus('loading');
    setLoadError(null);
    api.listEvents({ query: firstPageQuery }, { signal: controller.signal }).then(
      (page) => {
        if (current !== generation.current) return;
        setEvents(() => page.events);
        setCursor(page.nextCursor);
        setStatus('ready');
      },
      (error: unknown) => {
        if (isAbort(error) || current !== generation.current) return;
        if (error instanceof ApiError && error.status === 404) {
          // A remembered project that was deleted, or a link from another organization.
          forgetProject(sourceRef.current.projectId);
          toast.error(error, 'This project is not available');
          navigate(appPath('/projects'), { replace: true });
          return;
        }
        setStatus('error');
        setLoadError(describeError(error));
        toast.error(error, 'Could not load events');
      },
    );
    return () => controller.abort();
  }, [firstPageKey, reloadCount, toast, navigate, setEvents]);

  /** Fetches the first page and merges it; calls that arrive meanwhile are folded into one more round. */
  const refreshTop = useCallback(
    async (insert = true) => {
      if (refreshing.current) {
        refreshAgain.current = (refreshAgain.current ?? false) || insert;
        return;
      }
      refreshing.current = true;
      try {
        let round: boolean | null = insert;
        while (round !== null) {
          refreshAgain.current = null;
          const current = generation.current;
          const page = await api.listEvents({ query: eventsQuery(sourceRef.current, null) });
          if (current !== generation.current) break;
          const merged = mergeFirstPage(eventsRef.current, cursorRef.current, page, round);
          setEvents(() => merged.events);
          setCursor(merged.nextCursor);
          round = refreshAgain.current;
        }
      } catch (error) {
        toast.error(error, 'Could not load new events');
      } finally {
        refreshing.current = false;
      }
    },
    [toast, setEvents],
  );

  const loadMore = useCallback(async () => {
    const cursor = cursorRef.current;
    if (!cursor || loadingMoreRef.current) return;
    loadingMoreRef.current = true;
    setLoadingMore(true);
    const current = generation.current;
    try {
      const page = await api.listEvents({ query: eventsQuery(sourceRef.current, cursor) });
      if (current !== generation.current) return;
      setEvents((list) => {
        const seen = new Set(list.map((event) => event.id));
        return [...list, ...page.events.filter((event) => !seen.has(event.id))];
      });
      setCursor(page.nextCursor);
    } catch (error) {
      toast.error(error, 'Could not load more events');
    } finally {
      loadingMoreRef.current = false;
      setLoadingMore(false);
    }
  }, [toast, setEvents]);

  const reload = useCallback(() => setReloadCount((n) => n + 1), []);

  return { events, eventsRef, setEvents, nextCursor, status, loadError, loadingMore, loadMore, refreshTop, reload };
}

export type EventFeed = ReturnType<typeof useEventFeed>;

import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError, describeError, get, isAbort, post, withQuery } from '../api.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { SearchIcon } from '../components/Icons.tsx';
import { useToast } from '../components/Toasts.tsx';
import { RESYNC, useLive } from '../live.tsx';
import { appPath } from '../paths.ts';
import { forgetProject } from '../projects.tsx';
import type { CategoryCount, EventItem, EventPage } from '../types.ts';
import { CategoryPanel } from './feed/CategoryPanel.tsx';
import { EventCard, tagSearchText } from './feed/EventCard.tsx';
import { type FeedQuery, FilterChips, filterParams, useFeedQuery } from './feed/FeedFilters.tsx';
import { mergeFirstPage } from './feed/mergeFirstPage.ts';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;
const CATEGORY_REFRESH_MS = 800;
/** Within this many pixels of the top, new events are merged in place instead of announced. */
const TOP_SLACK_PX = 120;

interface Filters extends FeedQuery {
  projectId: string;
}

function eventsUrl(filters: Filters, cursor: string | null): string {
  const url = withQuery('/api/events', {
    project: filters.projectId,
    category: filters.category,
    search: filters.search,
    cursor,
    limit: PAGE_SIZE,
  });
  const extra = filterParams(filters).toString();
  return extra ? `${url}&${extra}` : url;
}

const isAtTop = () => window.scrollY <= TOP_SLACK_PX;

/** The event a push notification links to: `/app/p/<project>?event=<id>`. */
function linkedEventOf(search: string): number | null {
  const id = Number(new URLSearchParams(search).get('event'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function FeedPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [, navigate] = useLocation();
  const [query, updateQuery] = useFeedQuery();
  const { category, search } = query;
  const [searchInput, setSearchInput] = useState(search);
  const [events, setEvents] = useState<EventItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [pending, setPending] = useState(0);
  const [categories, setCategories] = useState<CategoryCount[] | null>(null);
  const [metadataOf, setMetadataOf] = useState<EventItem | null>(null);
  const [deleting, setDeleting] = useState<EventItem | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [reloadCount, setReloadCount] = useState(0);
  const [linkedEventId] = useState(() => linkedEventOf(window.location.search));
  const linkedEventShown = useRef(false);

  // Live messages and the scroll observer run outside React's render: they read the latest
  // state through these refs.
  const filters: Filters = { ...query, projectId };
  const firstPageUrl = eventsUrl(filters, null);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const eventsRef = useRef(events);
  eventsRef.current = events;
  const cursorRef = useRef(nextCursor);
  cursorRef.current = nextCursor;
  // Written with the state, not from it at render: a scroll that comes before the next render
  // must already see a new event waiting.
  const pendingRef = useRef(0);
  const setPendingCount = useCallback((count: number) => {
    pendingRef.current = count;
    setPending(count);
  }, []);
  /** Bumped whenever the filters change: answers for older filters are dropped. */
  const generation = useRef(0);
  const loadingMoreRef = useRef(false);
  const refreshing = useRef(false);
  const refreshAgain = useRef<boolean | null>(null);
  const ownFavorites = useRef(new Set<number>());

  // Debounced search box, written to the URL; Back or a link brings its text back into the box.
  const writtenSearch = useRef(search);
  useEffect(() => {
    if (search !== writtenSearch.current) setSearchInput(search);
    writtenSearch.current = search;
  }, [search]);
  useEffect(() => {
    if (searchInput === search) return;
    const timer = setTimeout(() => {
      writtenSearch.current = searchInput;
      updateQuery({ search: searchInput }, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search, updateQuery]);

  // First page, requested as soon as the page mounts and again whenever the filters change.
  useEffect(() => {
    const current = ++generation.current;
    const controller = new AbortController();
    setStatus('loading');
    setLoadError(null);
    setPendingCount(0);
    get<EventPage>(firstPageUrl, { signal: controller.signal }).then(
      (page) => {
        if (current !== generation.current) return;
        setEvents(page.events);
        setNextCursor(page.nextCursor);
        setStatus('ready');
      },
      (error: unknown) => {
        if (isAbort(error) || current !== generation.current) return;
        if (error instanceof ApiError && error.status === 404) {
          // A remembered project that was deleted, or a link from another organization.
          forgetProject(projectId);
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
  }, [projectId, firstPageUrl, reloadCount, toast, navigate]);

  const loadCategories = useCallback(async () => {
    try {
      setCategories(await get<CategoryCount[]>(withQuery('/api/categories', { project: projectId })));
    } catch (error) {
      // A missing project is reported once, by the events request, which also leaves the page.
      if (!(error instanceof ApiError && error.status === 404)) toast.error(error, 'Could not load categories');
      setCategories((current) => current ?? []);
    }
  }, [projectId, toast]);

  useEffect(() => {
    void loadCategories();
  }, [loadCategories]);

  const categoryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Throttled, not debounced: a steady stream of events must not postpone the counts forever.
  const scheduleCategories = useCallback(() => {
    if (categoryTimer.current !== undefined) return;
    categoryTimer.current = setTimeout(() => {
      categoryTimer.current = undefined;
      void loadCategories();
    }, CATEGORY_REFRESH_MS);
  }, [loadCategories]);
  useEffect(() => () => clearTimeout(categoryTimer.current), []);

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
          const page = await get<EventPage>(eventsUrl(filtersRef.current, null));
          if (current !== generation.current) break;
          const merged = mergeFirstPage(eventsRef.current, cursorRef.current, page, round);
          eventsRef.current = merged.events;
          cursorRef.current = merged.nextCursor;
          setEvents(merged.events);
          setNextCursor(merged.nextCursor);
          round = refreshAgain.current;
        }
      } catch (error) {
        toast.error(error, 'Could not load new events');
      } finally {
        refreshing.current = false;
      }
    },
    [toast],
  );

  const showPending = useCallback(() => {
    window.scrollTo({ top: 0 });
    setPendingCount(0);
    void refreshTop();
  }, [refreshTop, setPendingCount]);

  // Reaching the top by hand while new events wait loads them: nothing moves under the reader.
  // The listener stays attached for the page's life, so a scroll that follows an event before
  // React has rendered it is not missed.
  useEffect(() => {
    const onScroll = () => {
      if (isAtTop() && pendingRef.current > 0) {
        setPendingCount(0);
        void refreshTop();
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [refreshTop, setPendingCount]);

  useLive((message) => {
    switch (message.type) {
      case 'event.created':
      case 'import.completed':
        scheduleCategories();
        if (isAtTop() && pendingRef.current === 0) void refreshTop();
        else setPendingCount(pendingRef.current + 1);
        break;
      case 'event.deleted': {
        const id = Number(message.id);
        setEvents((list) => list.filter((event) => event.id !== id));
        scheduleCategories();
        break;
      }
      case 'event.favorited': {
        const id = Number(message.id);
        if (ownFavorites.current.delete(id)) break;
        if (eventsRef.current.some((event) => event.id === id)) void refreshTop(false);
        break;
      }
      case RESYNC:
        scheduleCategories();
        void refreshTop(isAtTop());
        break;
    }
  });

  // Opened from a notification: bring its event into view once, when it is among those loaded.
  useEffect(() => {
    if (linkedEventId === null || linkedEventShown.current || status !== 'ready') return;
    const card = document.querySelector(`article[data-event-id="${linkedEventId}"]`);
    if (!card) return;
    linkedEventShown.current = true;
    card.scrollIntoView({ block: 'center' });
  }, [linkedEventId, status, events]);

  const loadMore = useCallback(async () => {
    const cursor = cursorRef.current;
    if (!cursor || loadingMoreRef.current) return;
    loadingMoreRef.current = true;
    setLoadingMore(true);
    const current = generation.current;
    try {
      const page = await get<EventPage>(eventsUrl(filtersRef.current, cursor));
      if (current !== generation.current) return;
      setEvents((list) => {
        const seen = new Set(list.map((event) => event.id));
        return [...list, ...page.events.filter((event) => !seen.has(event.id))];
      });
      setNextCursor(page.nextCursor);
    } catch (error) {
      toast.error(error, 'Could not load more events');
    } finally {
      loadingMoreRef.current = false;
      setLoadingMore(false);
    }
  }, [toast]);

  // Infinite scroll. A new observer per page fires at once when the sentinel is still in view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !nextCursor || status !== 'ready') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadMore();
    }, { rootMargin: '600px 0px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [nextCursor, status, loadMore]);

  const toggleFavorite = async (event: EventItem) => {
    ownFavorites.current.add(event.id);
    try {
      const result = await post<{ id: number; favorited: boolean }>(`/api/events/${event.id}/favorite`);
      setEvents((list) => list.map((item) => (item.id === result.id ? { ...item, favorited: result.favorited } : item)));
    } catch (error) {
      ownFavorites.current.delete(event.id);
      toast.error(error, 'Could not change the favorite');
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await post(`/api/events/${deleting.id}/delete`);
      const id = deleting.id;
      setEvents((list) => list.filter((event) => event.id !== id));
      setDeleting(null);
      toast.success('Event deleted');
      scheduleCategories();
    } catch (error) {
      toast.error(error, 'Could not delete the event');
    } finally {
      setDeleteBusy(false);
    }
  };

  /** A tag filter (`key:value`); an object or array value, which no tag filter matches, is searched as text. */
  const filterByTag = (key: string, value: unknown) => {
    if (value !== null && typeof value === 'object') {
      updateQuery({ search: tagSearchText(key, value) });
    } else {
      const tag = `${key}:${String(value)}`;
      if (!query.tags.includes(tag)) updateQuery({ tags: [...query.tags, tag] });
    }
    window.scrollTo({ top: 0 });
  };

  const chooseCategory = (name: string | null) => {
    updateQuery({ category: name });
    window.scrollTo({ top: 0 });
  };

  const filtered = Boolean(category || search || query.tags.length || query.userId || query.favorited || query.range);

  return (
    <main className="page feed-layout">
      <CategoryPanel categories={categories} selected={category} onSelect={chooseCategory} />

      <section className="feed" aria-labelledby="feed-title">
        <div className="feed-toolbar">
          <h1 id="feed-title" className="feed-title">
            {category ? `#${category}` : 'Feed'}
          </h1>
          <div className="search-box">
            <label htmlFor="feed-search" className="visually-hidden">
              Search events
            </label>
            <SearchIcon />
            <input
              id="feed-search"
              type="search"
              placeholder="Search title, description, tags"
              value={searchInput}
              onChange={(event) => setSearchInput(event.target.value)}
            />
            {searchInput && (
              <button
                type="button"
                className="icon-button"
                aria-label="Clear search"
                onClick={() => {
                  setSearchInput('');
                  updateQuery({ search: '' });
                }}
              >
                ×
              </button>
            )}
          </div>
        </div>

        <FilterChips query={query} update={updateQuery} />

        {/* A zero-height sticky anchor: the pill floats over the list without moving it. */}
        <div className="pill-anchor">
          {pending > 0 && (
            <button type="button" className="new-events-pill" onClick={showPending}>
              ↑ {pending} new {pending === 1 ? 'event' : 'events'}
            </button>
          )}
        </div>

        {status === 'error' && (
          <div className="banner banner-error" role="alert">
            <span>Could not load events: {loadError}</span>
            <button type="button" className="button button-small" onClick={() => setReloadCount((n) => n + 1)}>
              Try again
            </button>
          </div>
        )}

        <div className="event-list" aria-busy={status === 'loading'} data-testid="event-list">
          {events.map((event) => (
            <EventCard
              key={event.id}
              event={event}
              linked={event.id === linkedEventId}
              onFavorite={() => void toggleFavorite(event)}
              onDelete={() => setDeleting(event)}
              onMetadata={() => setMetadataOf(event)}
              onTag={filterByTag}
              onCategory={() => chooseCategory(event.category)}
            />
          ))}
        </div>

        {status === 'loading' && events.length === 0 && <p className="muted center">Loading events…</p>}
        {status === 'ready' && events.length === 0 && (
          <div className="empty">
            {filtered ? (
              <p>No events match these filters.</p>
            ) : (
              <>
                <p>
                  <strong>No events yet.</strong> Send one from the <Link href="/playground">Playground</Link> or with your API key:
                </p>
                <pre className="code">{`curl -X POST ${window.location.origin}/api/events \\
  -H "Authorization: Bearer $EVENTLOG_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"project":"${projectId}","category":"signups","title":"New user","icon":"🎉"}'`}</pre>
              </>
            )}
          </div>
        )}

        <div ref={sentinel} className="sentinel" aria-hidden="true" />
        {nextCursor && status === 'ready' && (
          <div className="center">
            <button type="button" className="button" onClick={() => void loadMore()} disabled={loadingMore}>
              {loadingMore ? 'Loading…' : 'Load older events'}
            </button>
          </div>
        )}
        {!nextCursor && status === 'ready' && events.length > 0 && <p className="muted center small">That's everything.</p>}
      </section>

      <Dialog open={metadataOf !== null} title={metadataOf ? `Metadata · ${metadataOf.title}` : 'Metadata'} onClose={() => setMetadataOf(null)} wide>
        {metadataOf && (
          <>
            <pre className="code json" data-testid="metadata-json">
              {JSON.stringify(metadataOf.metadata, null, 2)}
            </pre>
            <CopyButton text={JSON.stringify(metadataOf.metadata, null, 2)} what="metadata" label="Copy JSON" />
          </>
        )}
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this event?"
        message={
          <p>
            “{deleting?.title}” will be removed from the feed and from search. This cannot be undone.
          </p>
        }
        confirmLabel="Delete event"
        danger
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </main>
  );
}

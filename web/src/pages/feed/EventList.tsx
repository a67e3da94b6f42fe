import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link } from 'wouter';
import type { EventItem } from '../../types.ts';
import { groupByDay } from './dayLabel.ts';
import { EventRow, type EventRowProps } from './EventRow.tsx';
import { SkeletonRows } from './SkeletonRows.tsx';
import type { EventFeed } from './useEventFeed.ts';
import './feed.css';

type RowHandlers = Pick<EventRowProps, 'onSelect' | 'onOpen' | 'onFavorite' | 'onDelete' | 'onCopyLink' | 'onTag' | 'onCategory'>;

interface EventListProps extends RowHandlers {
  feed: EventFeed;
  projectId: string;
  filtered: boolean;
  linkedId: number | null;
  selectedId: number | null;
}

/** The loaded events under day separators, with skeletons, the empty state and infinite scroll. */
export function EventList({ feed, projectId, filtered, linkedId, selectedId, ...handlers }: EventListProps) {
  const { events, status, nextCursor, loadingMore, loadMore } = feed;
  const groups = groupByDay(events);
  // Tab reaches one row, the selected one or else the first; Up/Down or j/k move from there,
  // Left/Right among the row's own controls (rovingFocus.ts).
  const tabbableId = selectedId !== null && events.some((event) => event.id === selectedId) ? selectedId : (events[0]?.id ?? null);

  // Infinite scroll. A new observer per page fires at once when the sentinel is still in view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !nextCursor || status !== 'ready') return;
    const observer = new IntersectionObserver(
      (entries) => {
        // Not while "Load older" has focus: Tab reaching it scrolls it into view, and the page
        // would change under the keyboard; there, Enter loads the next page.
        if (document.activeElement?.classList.contains('load-older')) return;
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [nextCursor, status, loadMore]);

  // The last page came while "Load older" had focus: focus goes to the words that replace it,
  // not to <body> (where Tab would start over from the top of the page).
  const focusTheEnd = useRef(false);
  const theEnd = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!focusTheEnd.current) return;
    focusTheEnd.current = false;
    if (theEnd.current && document.activeElement === document.body) theEnd.current.focus({ preventScroll: true });
  });

  return (
    <>
      {status === 'loading' && events.length === 0 && <SkeletonRows />}
      <div className="event-list" aria-busy={status === 'loading'} data-testid="event-list">
        {groups.map((group) => (
          <section key={group.key} className="day-group" aria-label={group.label}>
            <h2 className="day-separator">
              <time dateTime={group.key}>{group.label}</time>
            </h2>
            {group.items.map((event: EventItem) => (
              <EventRow
                key={event.id}
                event={event}
                linked={event.id === linkedId}
                selected={event.id === selectedId}
                tabbable={event.id === tabbableId}
                roving
                {...handlers}
              />
            ))}
          </section>
        ))}
      </div>

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
          <LoadOlder loading={loadingMore} loadMore={loadMore} onGoneWithFocus={() => (focusTheEnd.current = true)} />
        </div>
      )}
      {!nextCursor && status === 'ready' && events.length > 0 && (
        <p className="muted center small feed-end" tabIndex={-1} ref={theEnd}>
          That's everything.
        </p>
      )}
    </>
  );
}

/**
 * "Load older events". Never `disabled` while a page loads (loadMore ignores a second call): a
 * disabled button loses focus. Tab reaching it scrolled the list's end into view, which started a
 * load and disabled it: focus fell to <body> and Tab went on past it (issue 49, point 17).
 */
function LoadOlder({ loading, loadMore, onGoneWithFocus }: { loading: boolean; loadMore: () => Promise<void>; onGoneWithFocus: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const gone = useRef(onGoneWithFocus);
  gone.current = onGoneWithFocus;
  // Runs while the button is still in the page, just before it is taken out.
  useLayoutEffect(() => {
    const node = button.current;
    return () => {
      if (node && document.activeElement === node) gone.current();
    };
  }, []);
  // The older events come above the button: once they are in the page, a focused button is
  // brought back into view, below them.
  const wasLoading = useRef(false);
  useEffect(() => {
    if (loading) wasLoading.current = true;
    else if (wasLoading.current) {
      wasLoading.current = false;
      if (document.activeElement === button.current) button.current?.scrollIntoView({ block: 'nearest' });
    }
  }, [loading]);
  return (
    <button ref={button} type="button" className="button load-older" aria-disabled={loading || undefined} onClick={() => void loadMore()}>
      {loading ? 'Loading…' : 'Load older events'}
    </button>
  );
}

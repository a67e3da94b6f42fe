import { useEffect, useRef } from 'react';
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
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [nextCursor, status, loadMore]);

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
              <EventRow key={event.id} event={event} linked={event.id === linkedId} selected={event.id === selectedId} tabbable={event.id === tabbableId} roving {...handlers} />
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
          <button type="button" className="button" onClick={() => void loadMore()} disabled={loadingMore}>
            {loadingMore ? 'Loading…' : 'Load older events'}
          </button>
        </div>
      )}
      {!nextCursor && status === 'ready' && events.length > 0 && <p className="muted center small">That's everything.</p>}
    </>
  );
}

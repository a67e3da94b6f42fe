import type { EventFeed } from './useEventFeed.ts';

interface FilterSummaryProps {
  feed: Pick<EventFeed, 'events' | 'status' | 'nextCursor'>;
  onClearAll: () => void;
}

/**
 * How many events match the active filters, and "Clear all". The count is the loaded list's,
 * never a count(*) over the feed (that would read every matching event of a large project on each
 * filter change): exact once the last page is in ("12 events match"), otherwise a lower bound
 * that says so ("50+ events match"), which grows as older pages load. A careful user reads "50+"
 * as "at least 50", which is exactly what is known.
 */
export function FilterSummary({ feed, onClearAll }: FilterSummaryProps) {
  const { events, status, nextCursor } = feed;
  const loaded = events.length;
  const count = nextCursor ? `${loaded.toLocaleString()}+ events` : `${loaded.toLocaleString()} ${loaded === 1 ? 'event' : 'events'}`;
  return (
    <div className="filter-summary">
      <p className="filter-count" role="status" data-testid="filter-count">
        {status === 'ready' ? `${count} match these filters` : ''}
      </p>
      <button type="button" className="chip clear-filters" onClick={onClearAll}>
        Clear all filters
      </button>
    </div>
  );
}

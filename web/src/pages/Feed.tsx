import { useCallback, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { exactTime } from '../components/Time.tsx';
import type { EventItem } from '../types.ts';
import { CategoryPanel } from './feed/CategoryPanel.tsx';
import { EventDetail } from './feed/EventDetail.tsx';
import { EventList } from './feed/EventList.tsx';
import { FeedHeader } from './feed/FeedHeader.tsx';
import { FilterChips, NO_FILTERS, hasFilters, narrowsCategories, useFeedQuery } from './feed/FeedFilters.tsx';
import { FilterSummary } from './feed/FilterSummary.tsx';
import { tagSearchText } from './feed/feedLinks.ts';
import { NotifyToasts } from './feed/NotifyToasts.tsx';
import { useCategories } from './feed/useCategories.ts';
import { useEventActions } from './feed/useEventActions.ts';
import { useEventFeed } from './feed/useEventFeed.ts';
import { useFeedKeyboard } from './feed/useFeedKeyboard.ts';
import { useLinkedEvent } from './feed/useLinkedEvent.ts';
import { useLiveList } from './feed/useLiveList.ts';
import { useNotifyCue } from './feed/useNotifyCue.ts';
import { useSearchInput } from './feed/useSearchInput.ts';
import './feed/feed.css';

export function FeedPage({ projectId }: { projectId: string }) {
  const [query, updateQuery] = useFeedQuery();
  const [searchInput, setSearchInput] = useSearchInput(query.search, updateQuery);
  const searchRef = useRef<HTMLInputElement>(null);
  /** Unix seconds: a linked event's time, so the feed shows it and the events before it. */
  const [until, setUntil] = useState<number | null>(null);
  const feed = useEventFeed({ ...query, projectId, until });
  const { categories, scheduleCategories } = useCategories(projectId);
  const cue = useNotifyCue();
  const live = useLiveList({
    feed,
    resetKey: JSON.stringify([projectId, query, until]),
    frozen: until !== null,
    onCountsChanged: scheduleCategories,
    onNotify: (id) => void cue.notify(id),
  });

  // The detail view follows the loaded copy of its event (favorites, live changes); an event
  // fetched by id for a link is kept until the list has it.
  const [detailId, setDetailId] = useState<number | null>(null);
  const [detailCopy, setDetailCopy] = useState<EventItem | null>(null);
  const detail = detailId === null ? null : (feed.events.find((event) => event.id === detailId) ?? (detailCopy?.id === detailId ? detailCopy : null));
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const openDetail = useCallback((event: EventItem) => {
    setSelectedId(event.id);
    setDetailCopy(event);
    setDetailId(event.id);
  }, []);
  const followDetail = useCallback((event: EventItem | null) => {
    if (event === null) setDetailId(null);
    else setDetailCopy((copy) => (copy?.id === event.id ? event : copy));
  }, []);
  const actions = useEventActions({ setEvents: feed.setEvents, ownFavorites: live.ownFavorites, onChanged: followDetail, onCountsChanged: scheduleCategories });

  const linked = useLinkedEvent({ projectId, events: feed.events, status: feed.status, anchorAt: setUntil, open: openDetail });
  useFeedKeyboard({
    events: feed.events,
    selectedId,
    select: setSelectedId,
    open: openDetail,
    favorite: (event) => void actions.toggleFavorite(event),
    searchRef,
  });

  const backToNewest = () => {
    setUntil(null);
    window.scrollTo({ top: 0 });
  };

  /** A tag filter (`key:value`); an object or array value, which no tag filter matches, is searched as text. */
  const filterByTag = useCallback(
    (key: string, value: unknown) => {
      if (value !== null && typeof value === 'object') {
        updateQuery({ search: tagSearchText(key, value) });
      } else {
        const tag = `${key}:${String(value)}`;
        if (!query.tags.includes(tag)) updateQuery({ tags: [...query.tags, tag] });
      }
      window.scrollTo({ top: 0 });
    },
    [query.tags, updateQuery],
  );

  const chooseCategory = useCallback(
    (name: string | null) => {
      updateQuery({ category: name });
      window.scrollTo({ top: 0 });
    },
    [updateQuery],
  );

  const filtersOn = hasFilters(query);
  const filtered = filtersOn || until !== null;
  const clearAll = () => {
    setSearchInput('');
    updateQuery(NO_FILTERS);
    window.scrollTo({ top: 0 });
  };
  const pending = live.pending;

  return (
    <main className="page feed-page">
      <FeedHeader
        title={query.category ? `#${query.category}` : 'Feed'}
        searchInput={searchInput}
        setSearchInput={setSearchInput}
        clearSearch={() => {
          setSearchInput('');
          updateQuery({ search: '' });
        }}
        searchRef={searchRef}
        sound={cue.sound}
        toggleSound={cue.toggleSound}
      />
      {/* The sidebar sits left of the list (above it on a phone), so it comes first in the page too. */}
      <div className="feed-layout">
        <CategoryPanel categories={categories} selected={query.category} onSelect={chooseCategory} totalsOnly={narrowsCategories(query)} />
        <section className="feed" aria-labelledby="feed-title">
          <FilterChips query={query} update={updateQuery} />
          {filtersOn && <FilterSummary feed={feed} onClearAll={clearAll} />}

          {/* A zero-height sticky anchor: the pill floats over the list without moving it. */}
          <div className="pill-anchor">
            {pending > 0 && (
              <button type="button" className="new-events-pill" onClick={until === null ? live.showPending : backToNewest}>
                ↑ {pending} new {pending === 1 ? 'event' : 'events'}
              </button>
            )}
          </div>

          {linked.missing && (
            <div className="banner banner-warning" role="alert">
              <span>{linked.missing}</span>
              <button type="button" className="button button-small" onClick={linked.dismissMissing}>
                Dismiss
              </button>
            </div>
          )}
          {until !== null && (
            <div className="banner banner-info" data-testid="feed-anchor">
              <span>Showing events up to {exactTime(new Date(until * 1000).toISOString())}, around the linked event.</span>
              <button type="button" className="button button-small" onClick={backToNewest}>
                Back to newest
              </button>
            </div>
          )}
          {feed.status === 'error' && (
            <div className="banner banner-error" role="alert">
              <span>Could not load events: {feed.loadError}</span>
              <button type="button" className="button button-small" onClick={feed.reload}>
                Try again
              </button>
            </div>
          )}

          <EventList
            feed={feed}
            projectId={projectId}
            filtered={filtered}
            linkedId={linked.linkedId}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onOpen={openDetail}
            onFavorite={(event) => void actions.toggleFavorite(event)}
            onDelete={actions.askDelete}
            onCopyLink={actions.copyLink}
            onTag={filterByTag}
            onCategory={chooseCategory}
          />
        </section>
      </div>

      <EventDetail event={detail} onClose={() => setDetailId(null)} onFavorite={(event) => void actions.toggleFavorite(event)} onDelete={actions.askDelete} />
      <NotifyToasts events={cue.toasts} onOpen={openDetail} onDismiss={cue.dismiss} />

      <ConfirmDialog
        open={actions.deleting !== null}
        title="Delete this event?"
        message={<p>“{actions.deleting?.title}” will be removed from the feed and from search. This cannot be undone.</p>}
        confirmLabel="Delete event"
        danger
        busy={actions.deleteBusy}
        onConfirm={() => void actions.confirmDelete()}
        onCancel={actions.cancelDelete}
      />
    </main>
  );
}

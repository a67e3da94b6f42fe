import { useCallback, useEffect, useRef, useState } from 'react';
import { RESYNC, useLive } from '../../live.tsx';
import type { EventFeed } from './useEventFeed.ts';

/** Within this many pixels of the top, new events are merged in place instead of announced. */
const TOP_SLACK_PX = 120;
const isAtTop = () => window.scrollY <= TOP_SLACK_PX;

interface LiveListOptions {
  feed: EventFeed;
  /** Changes with the filters: the count of waiting events starts again. */
  resetKey: string;
  /** A past slice of the feed is shown (a linked event): new events wait behind the pill. */
  frozen: boolean;
  onCountsChanged: () => void;
  onNotify: (eventId: number) => void;
}

/**
 * Keeps the loaded list in step with the live stream: new events are merged at the top while the
 * reader is there, otherwise counted for the "N new events" pill, so nothing moves under them.
 */
export function useLiveList({ feed, resetKey, frozen, onCountsChanged, onNotify }: LiveListOptions) {
  const { refreshTop, setEvents, eventsRef } = feed;
  const [pending, setPending] = useState(0);
  // Written with the state, not from it at render: a scroll that comes before the next render
  // must already see a new event waiting.
  const pendingRef = useRef(0);
  const setPendingCount = useCallback((count: number) => {
    pendingRef.current = count;
    setPending(count);
  }, []);
  const frozenRef = useRef(frozen);
  frozenRef.current = frozen;
  const ownFavorites = useRef(new Set<number>());

  useEffect(() => setPendingCount(0), [resetKey, setPendingCount]);

  const showPending = useCallback(() => {
    window.scrollTo({ top: 0 });
    setPendingCount(0);
    void refreshTop();
  }, [refreshTop, setPendingCount]);

  // Reaching the top by hand while new events wait loads them. The listener stays attached for
  // the page's life, so a scroll that follows an event before React has rendered it is not missed.
  useEffect(() => {
    const onScroll = () => {
      if (isAtTop() && pendingRef.current > 0 && !frozenRef.current) {
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
        onCountsChanged();
        if (isAtTop() && pendingRef.current === 0 && !frozenRef.current) void refreshTop();
        else setPendingCount(pendingRef.current + 1);
        if ((message as { notify?: boolean }).notify && message.id !== undefined) onNotify(Number(message.id));
        break;
      case 'event.deleted': {
        const id = Number(message.id);
        setEvents((list) => list.filter((event) => event.id !== id));
        onCountsChanged();
        break;
      }
      case 'event.favorited': {
        const id = Number(message.id);
        if (ownFavorites.current.delete(id)) break;
        if (eventsRef.current.some((event) => event.id === id)) void refreshTop(false);
        break;
      }
      case RESYNC:
        onCountsChanged();
        void refreshTop(isAtTop() && !frozenRef.current);
        break;
    }
  });

  return { pending, showPending, ownFavorites: ownFavorites.current };
}

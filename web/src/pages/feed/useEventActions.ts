import { useCallback, useState } from 'react';
import { copyText } from '../../components/CopyButton.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { EventItem } from '../../types.ts';
import { eventLink } from './feedLinks.ts';

interface ActionOptions {
  setEvents: (change: (list: EventItem[]) => EventItem[]) => void;
  /** Ids whose live `event.favorited` echo is this page's own doing. */
  ownFavorites: Set<number>;
  /** An event changed or went away: the detail view follows. */
  onChanged: (event: EventItem | null) => void;
  onCountsChanged: () => void;
}

/** Favorite, copy link and delete (after a confirmation), for the rows and the detail view. */
export function useEventActions({ setEvents, ownFavorites, onChanged, onCountsChanged }: ActionOptions) {
  const toast = useToast();
  const [deleting, setDeleting] = useState<EventItem | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const toggleFavorite = useCallback(
    async (event: EventItem) => {
      ownFavorites.add(event.id);
      try {
        const result = await api.toggleFavorite({ path: { eventId: String(event.id) } });
        setEvents((list) => list.map((item) => (item.id === result.id ? { ...item, favorited: result.favorited } : item)));
        onChanged({ ...event, favorited: result.favorited });
      } catch (error) {
        ownFavorites.delete(event.id);
        toast.error(error, 'Could not change the favorite');
      }
    },
    [ownFavorites, setEvents, onChanged, toast],
  );

  const copyLink = useCallback(
    (event: EventItem) => {
      copyText(eventLink(event)).then(
        () => toast.success('Link to the event copied'),
        (error: unknown) => toast.error(error, 'Copy failed'),
      );
    },
    [toast],
  );

  const askDelete = useCallback(
    (event: EventItem) => {
      onChanged(null);
      setDeleting(event);
    },
    [onChanged],
  );

  const confirmDelete = useCallback(async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await api.deleteEvent({ path: { eventId: String(deleting.id) } });
      const id = deleting.id;
      setEvents((list) => list.filter((event) => event.id !== id));
      setDeleting(null);
      toast.success('Event deleted');
      onCountsChanged();
    } catch (error) {
      toast.error(error, 'Could not delete the event');
    } finally {
      setDeleteBusy(false);
    }
  }, [deleting, setEvents, toast, onCountsChanged]);

  return { toggleFavorite, copyLink, askDelete, deleting, deleteBusy, confirmDelete, cancelDelete: () => setDeleting(null) };
}

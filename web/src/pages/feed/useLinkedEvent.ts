import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ApiError, describeError } from '../../api.ts';
import * as api from '../../generated/index.ts';
import type { EventItem } from '../../types.ts';
import { linkedEventOf } from './feedLinks.ts';
import type { FeedStatus } from './useEventFeed.ts';

interface LinkedEventOptions {
  projectId: string;
  events: EventItem[];
  status: FeedStatus;
  /** Shows the feed up to this time (Unix seconds): the linked event and the ones before it. */
  anchorAt: (until: number) => void;
  open: (event: EventItem) => void;
}

/**
 * `?event=<id>`, what a push notification opens: the event is opened wherever it is. When it is
 * not among the loaded events it is fetched by id and the feed jumps to its time; an event of
 * another project moves to that project's feed.
 */
export function useLinkedEvent({ projectId, events, status, anchorAt, open }: LinkedEventOptions) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const linkedId = linkedEventOf(search);
  const [missing, setMissing] = useState<string | null>(null);
  const handled = useRef<number | null>(null);

  useEffect(() => {
    if (linkedId === null || handled.current === linkedId || status !== 'ready') return;
    handled.current = linkedId;
    setMissing(null);
    const loaded = events.find((event) => event.id === linkedId);
    if (loaded) {
      open(loaded);
      return;
    }
    api.getEvent({ path: { eventId: String(linkedId) } }).then(
      (event) => {
        if (event.projectId !== projectId) {
          handled.current = null;
          navigate(`~/app/p/${encodeURIComponent(event.projectId)}?event=${event.id}`, { replace: true });
          return;
        }
        anchorAt(Math.floor(new Date(event.createdAt).getTime() / 1000) + 1);
        open(event);
      },
      (error: unknown) => {
        setMissing(
          error instanceof ApiError && error.status === 404
            ? `Event ${linkedId} does not exist: it was deleted, or it belongs to another organization.`
            : `Could not load event ${linkedId}: ${describeError(error)}`,
        );
      },
    );
  }, [linkedId, status, events, projectId, anchorAt, open, navigate]);

  // Once its row is in the list (at once, or after the jump to its time), bring it into view once.
  const scrolled = useRef<number | null>(null);
  useEffect(() => {
    if (linkedId === null || scrolled.current === linkedId || status !== 'ready') return;
    const row = document.querySelector(`article[data-event-id="${linkedId}"]`);
    if (!row) return;
    scrolled.current = linkedId;
    row.scrollIntoView({ block: 'center' });
  }, [linkedId, status, events]);

  return { linkedId, missing, dismissMissing: () => setMissing(null) };
}

import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { get, post, withQuery } from '../api.ts';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useLive } from '../live.tsx';
import type { AppUser, EventItem } from '../types.ts';
import { EventCard } from './feed/EventCard.tsx';
import { PropertyList } from './Users.tsx';

/** One user: properties, first/last seen, and the journey (the feed filtered to them), live. */
export function UserProfilePage({ projectId, userId }: { projectId: string; userId: string }) {
  const toast = useToast();
  const [user, setUser] = useState<AppUser | null>(null);
  const [events, setEvents] = useState<EventItem[] | null>(null);

  const load = useCallback(async () => {
    try {
      const [profile, journey] = await Promise.all([
        get<AppUser>(withQuery(`/api/users/${encodeURIComponent(userId)}`, { project: projectId })),
        get<{ events: EventItem[] }>(withQuery('/api/events', { project: projectId, user_id: userId })),
      ]);
      setUser(profile);
      setEvents(journey.events);
    } catch (error) {
      toast.error(error, 'Could not load the user');
    }
  }, [projectId, userId, toast]);

  const act = async (path: string) => {
    try {
      await post(path);
      await load();
    } catch (error) {
      toast.error(error, 'Could not change the event');
    }
  };

  useEffect(() => {
    void load();
  }, [load]);
  // Any change in the project may be this user's: reload the small journey page.
  useLive(() => void load());

  return (
    <main className="page page-narrow">
      <p>
        <Link href="/users">← Users</Link>
      </p>
      <h1>{userId}</h1>
      {user && (
        <section className="card" aria-label="Profile">
          <p className="muted small">
            {user.eventCount.toLocaleString()} events · first seen <RelativeTime iso={user.firstSeen} /> · last seen{' '}
            <RelativeTime iso={user.lastSeen} />
          </p>
          <PropertyList properties={user.properties} />
        </section>
      )}
      <h2>Journey</h2>
      <p>
        <Link href={`/?user_id=${encodeURIComponent(userId)}`}>Show in the feed with other filters</Link>
      </p>
      {events === null ? (
        <p className="muted" aria-busy="true">Loading…</p>
      ) : events.length === 0 ? (
        <p className="muted">No events of this user are stored.</p>
      ) : (
        <ul className="feed-list journey">
          {events.map((event) => (
            <li key={event.id}>
              <EventCard
                event={event}
                onFavorite={() => void act(`/api/events/${event.id}/favorite`)}
                onDelete={() => void act(`/api/events/${event.id}/delete`)}
                onMetadata={() => undefined}
                onTag={() => undefined}
                onCategory={() => undefined}
              />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { withQuery } from '../api.ts';
import { copyText } from '../components/CopyButton.tsx';
import { DateAndTime, RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import type { EventItem } from '../types.ts';
import { groupTitle } from './Groups.tsx';
import { groupByDay } from './feed/dayLabel.ts';
import { EventDetail } from './feed/EventDetail.tsx';
import { EventRow } from './feed/EventRow.tsx';
import { eventLink, tagSearchText } from './feed/feedLinks.ts';
import { initials } from '../components/person.ts';
import { userTitle } from './Users.tsx';
import { ActivityChart } from './users/ActivityChart.tsx';
import { PropertyTable } from './users/PropertyTable.tsx';
import './users/users.css';

/** A first sighting or the last event as an exact date and time, with the distance beside it. */
function Seen({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">unknown</span>;
  return (
    <>
      <DateAndTime iso={iso} />{' '}
      <span className="muted">
        (<RelativeTime iso={iso} />)
      </span>
    </>
  );
}

/** One user: properties, first seen and last active, and the journey (the feed filtered to them), live and paged. */
export function UserProfilePage({ projectId, userId }: { projectId: string; userId: string }) {
  const toast = useToast();
  const [, navigate] = useLocation();
  // Pages shown; a ref, so that loading one more does not re-run the load and fetch them all again.
  const pages = useRef(1);
  const [detailId, setDetailId] = useState<number | null>(null);

  const journeyPage = useCallback(
    (cursor: string | null, signal?: AbortSignal) =>
      api.listEvents({ query: { project: projectId, user_id: userId, cursor: cursor ?? undefined } }, { signal }),
    [projectId, userId],
  );

  // Reloads the profile and as many journey pages as are shown, so a live change keeps the scroll.
  // Any change in the project may be this user's, so every live message counts.
  const {
    data,
    error,
    reload: load,
    setData,
  } = useResource(
    async (signal) => {
      const path = { userId };
      const query = { project: projectId };
      const [profile, activity, first, memberships] = await Promise.all([
        api.getUser({ path, query }, { signal }),
        api.getUserActivity({ path, query }, { signal }),
        journeyPage(null, signal),
        api.listUserGroups({ path, query }, { signal }),
      ]);
      let journey = first;
      for (let page = 1; page < pages.current && journey.nextCursor; page++) {
        const next = await journeyPage(journey.nextCursor, signal);
        journey = { events: [...journey.events, ...next.events], nextCursor: next.nextCursor };
      }
      return { user: profile, activity, journey, groups: memberships.groups };
    },
    [projectId, userId, journeyPage],
    { live: () => true },
  );
  useEffect(() => {
    if (error) toast.error(error, 'Could not load the user');
  }, [error, toast]);
  const user = data?.user ?? null;
  const activity = data?.activity ?? null;
  const journey = data?.journey ?? null;
  const groups = data?.groups ?? [];

  const loadMore = async () => {
    if (!journey?.nextCursor) return;
    try {
      const next = await journeyPage(journey.nextCursor);
      setData((shown) => shown && { ...shown, journey: { events: [...journey.events, ...next.events], nextCursor: next.nextCursor } });
      pages.current += 1;
    } catch (error) {
      toast.error(error, 'Could not load more events');
    }
  };

  const act = async (change: Promise<unknown>) => {
    try {
      await change;
      await load();
    } catch (error) {
      toast.error(error, 'Could not change the event');
    }
  };
  const remove = (event: EventItem) => {
    if (!window.confirm(`Delete “${event.title}”? This cannot be undone.`)) return;
    setDetailId(null);
    void act(api.deleteEvent({ path: { eventId: String(event.id) } }));
  };
  const copyLink = (event: EventItem) =>
    copyText(eventLink(event)).then(
      () => toast.success('Link to the event copied'),
      (error: unknown) => toast.error(error, 'Copy failed'),
    );
  const filterFeed = (params: Record<string, string>) => navigate(withQuery('/', { user_id: userId, ...params }));

  const events = journey?.events ?? null;
  const detail = events?.find((event) => event.id === detailId) ?? null;
  return (
    <main className="page page-narrow feed-page">
      <p>
        <Link href="/users">← Users</Link>
      </p>
      <div className="user-heading">
        <span className="avatar" aria-hidden="true" data-testid="profile-initials">
          {initials(user ? userTitle(user) : userId)}
        </span>
        <h1>{user ? userTitle(user) : userId}</h1>
      </div>
      {user && (
        <section className="card" aria-label="Profile">
          <dl className="user-facts">
            {userTitle(user) !== userId && (
              <>
                <dt>User id</dt>
                <dd className="mono">{userId}</dd>
              </>
            )}
            <dt>Events</dt>
            <dd>{user.eventCount.toLocaleString()}</dd>
            <dt>First seen</dt>
            <dd data-testid="first-seen">
              <Seen iso={user.firstSeen} />
            </dd>
            {/* Activity is events (decision 197): an identify call updates properties, it is
                not a sign of life, so this is the newest event of the journey, not `lastSeen`. */}
            <dt>Last active</dt>
            <dd data-testid="last-active">{events?.[0] ? <Seen iso={events[0].createdAt} /> : <span className="muted">no events yet</span>}</dd>
          </dl>
          {activity && <ActivityChart activity={activity} />}
          <PropertyTable properties={user.properties} />
          <h2>Groups</h2>
          {groups.length === 0 ? (
            <p className="muted small">Not in any group.</p>
          ) : (
            <ul className="user-groups" aria-label="Groups of the user">
              {groups.map((group) => (
                <li key={group.id}>
                  <Link href={`/groups/${encodeURIComponent(group.id)}`}>{groupTitle(group)}</Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <h2 className="journey-title">Journey</h2>
      <p>
        <Link href={`/?user_id=${encodeURIComponent(userId)}`}>Show in the feed with other filters</Link>
      </p>
      {events === null ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : events.length === 0 ? (
        <p className="muted">No events of this user are stored.</p>
      ) : (
        <div className="event-list journey">
          {groupByDay(events).map((group) => (
            <section key={group.key} className="day-group" aria-label={group.label}>
              <h3 className="day-separator">
                <time dateTime={group.key}>{group.label}</time>
              </h3>
              {group.items.map((event) => (
                <EventRow
                  key={event.id}
                  event={event}
                  linked={false}
                  selected={event.id === detailId}
                  tabbable
                  onOpen={(opened) => setDetailId(opened.id)}
                  onFavorite={(changed) => void act(api.toggleFavorite({ path: { eventId: String(changed.id) } }))}
                  onDelete={remove}
                  onCopyLink={(linked) => void copyLink(linked)}
                  onTag={(key, value) =>
                    filterFeed(value !== null && typeof value === 'object' ? { search: tagSearchText(key, value) } : { tag: `${key}:${String(value)}` })
                  }
                  onCategory={(category) => filterFeed({ category })}
                />
              ))}
            </section>
          ))}
          {journey?.nextCursor && (
            <button type="button" className="button" onClick={() => void loadMore()}>
              Load older events
            </button>
          )}
        </div>
      )}
      <EventDetail
        event={detail}
        onClose={() => setDetailId(null)}
        onFavorite={(event) => void act(api.toggleFavorite({ path: { eventId: String(event.id) } }))}
        onDelete={remove}
      />
    </main>
  );
}

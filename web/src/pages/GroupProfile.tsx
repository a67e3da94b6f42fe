import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { initials } from '../components/person.ts';
import { DateAndTime, RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import type { UserActivity } from '../types.ts';
import { groupTitle } from './Groups.tsx';
import { userTitle } from './Users.tsx';
import { ActivityChart } from './users/ActivityChart.tsx';
import './groups/groups.css';
import './users/users.css';

/**
 * Members shown, most recently active first, with their last event and their events count; the
 * rest are counted. Activity is the newest event: an identify call is not (decision 197).
 */
const MEMBERS_WITH_DETAILS = 50;
const DAYS = 30;

/** The last 30 days (today included), oldest first, in the browser's calendar: days without events count 0. */
function lastDays(counts: Map<string, number>): UserActivity {
  const days: UserActivity['days'] = [];
  const today = new Date();
  for (let back = DAYS - 1; back >= 0; back--) {
    const date = new Date(today.getFullYear(), today.getMonth(), today.getDate() - back);
    const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    days.push({ day, count: counts.get(day) ?? 0 });
  }
  return { days };
}

/** One group: its properties, its users with their last event, an activity chart and its users' recent events. */
export function GroupProfilePage({ projectId, groupId }: { projectId: string; groupId: string }) {
  const toast = useToast();
  const [, navigate] = useLocation();
  // Any change in the project may touch this group's users: every live message counts.
  const { data, error } = useResource(
    async (signal) => {
      const query = { project: projectId };
      const [detail, charts, recent, users] = await Promise.all([
        api.getGroup({ path: { groupId }, query }, { signal }),
        api.getCharts({ query: { ...query, group: groupId, days: String(DAYS) } }, { signal }),
        api.listEvents({ query: { ...query, group: groupId, limit: '20' } }, { signal }),
        api.listUsers({ query: { ...query, group: groupId, sort: 'lastActive', limit: String(MEMBERS_WITH_DETAILS) } }, { signal }),
      ]);
      const counts = new Map<string, number>();
      for (const series of Object.values(charts)) for (const { day, count } of series) counts.set(day, (counts.get(day) ?? 0) + count);
      return { group: detail.group, activity: lastDays(counts), recent, members: users.users };
    },
    [projectId, groupId],
    { live: () => true },
  );
  useEffect(() => {
    if (error) toast.error(error, 'Could not load the group');
  }, [error, toast]);
  const group = data?.group ?? null;
  const members = data?.members ?? null;
  const activity = data?.activity ?? null;
  const recent = data?.recent ?? null;

  const remove = async () => {
    if (!window.confirm(`Delete the group “${groupId}”? Its users and their events stay.`)) return;
    try {
      await api.deleteGroup({ path: { groupId }, query: { project: projectId } });
      toast.success('Group deleted');
      navigate('/groups');
    } catch (error) {
      toast.error(error, 'Could not delete the group');
    }
  };

  const properties = Object.entries(group?.properties ?? {});
  return (
    <main className="page page-narrow">
      <p>
        <Link href="/groups">← Groups</Link>
      </p>
      <h1>{group ? groupTitle(group) : groupId}</h1>
      {group && (
        <section className="card" aria-label="Group">
          <dl className="user-facts">
            {groupTitle(group) !== groupId && (
              <>
                <dt>Group id</dt>
                <dd className="mono">{groupId}</dd>
              </>
            )}
            <dt>Users</dt>
            <dd>{group.users.toLocaleString()}</dd>
            <dt>First seen</dt>
            <dd>
              <DateAndTime iso={group.firstSeenAt} />
            </dd>
            <dt>Last active</dt>
            <dd>{group.lastSeenAt ? <DateAndTime iso={group.lastSeenAt} /> : <span className="muted">no events yet</span>}</dd>
          </dl>
          {activity && <ActivityChart activity={activity} />}
          <h2>Properties</h2>
          {properties.length === 0 ? (
            <p className="muted small">No properties yet.</p>
          ) : (
            <table className="group-table">
              <tbody>
                {properties.map(([key, value]) => (
                  <tr key={key}>
                    <th scope="row">{key}</th>
                    <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <button type="button" className="button danger" onClick={() => void remove()}>
            Delete group
          </button>
        </section>
      )}
      <h2>Users</h2>
      {members === null ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : members.length === 0 ? (
        <p className="muted">No users in this group.</p>
      ) : (
        <ul className="group-members" aria-label="Users of the group">
          {members.map((user) => (
            <li key={user.userId}>
              <span className="user-list-name">
                <span className="avatar avatar-small" aria-hidden="true" data-testid="user-initials">
                  {initials(userTitle(user))}
                </span>
                <Link href={`/users/${encodeURIComponent(user.userId)}`}>{userTitle(user)}</Link>
              </span>
              <span className="muted small" data-testid="member-facts">
                {user.lastActive ? (
                  <>
                    last active <RelativeTime iso={user.lastActive} /> · {user.eventCount.toLocaleString()} {user.eventCount === 1 ? 'event' : 'events'}
                  </>
                ) : (
                  'no events yet'
                )}
              </span>
            </li>
          ))}
          {group && group.users > members.length && <li className="muted small">and {(group.users - members.length).toLocaleString()} more</li>}
        </ul>
      )}
      <h2>Recent events</h2>
      <p>
        <Link href={`/?group=${encodeURIComponent(groupId)}`}>Show in the feed</Link>
      </p>
      {recent === null ? null : recent.events.length === 0 ? (
        <p className="muted">No events of its users are stored.</p>
      ) : (
        <ul className="group-members" aria-label="Recent events of the group">
          {recent.events.map((event) => (
            <li key={event.id}>
              <span>
                {event.icon} {event.title}
              </span>
              <span className="muted small">
                {event.category} · {event.user_id} · <RelativeTime iso={event.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

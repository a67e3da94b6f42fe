import { Link, useSearchParams } from 'wouter';
import { useKeysetPages } from '../components/useKeysetPages.ts';
import { initials, personName } from '../components/person.ts';
import { PageHeader } from '../components/PageHeader.tsx';
import { RelativeTime } from '../components/Time.tsx';
import * as api from '../generated/index.ts';
import type { AppUser } from '../types.ts';
import './users/users.css';

// "Last active" is the newest event: an identify call updates properties, it is not activity, so
// a bulk identify does not make everyone "seen 7 minutes ago" (decision 197).
const SORTS = [
  ['lastActive', 'Last active'],
  ['firstSeen', 'First seen (newest users)'],
  ['events', 'Most events'],
] as const;
type UserSort = (typeof SORTS)[number][0];
const isSort = (text: string | null): text is UserSort => SORTS.some(([value]) => value === text);

/** The application's users, most recently seen first or as chosen; the search matches ids and property values. */
export function UsersPage({ projectId }: { projectId: string }) {
  // The search is kept in the address (?search=), so a reload, a shared link and Back keep it.
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  // The order is kept there too (?sort=), absent for the default, last active.
  const requested = params.get('sort');
  const sort: UserSort = isSort(requested) ? requested : 'lastActive';
  const setQuery = (next: { search: string; sort: UserSort }) =>
    setParams({ ...(next.search ? { search: next.search } : {}), ...(next.sort !== 'lastActive' ? { sort: next.sort } : {}) }, { replace: true });
  const setSearch = (text: string) => setQuery({ search: text, sort });
  const query = { project: projectId, search: search || undefined, sort };

  const {
    items: users,
    nextCursor,
    more,
  } = useKeysetPages(
    (paged, signal) => api.listUsers({ query: paged }, { signal }),
    query,
    (page) => page.users,
    'users',
  );

  return (
    <main className="page page-narrow">
      <PageHeader title="Users" />
      <div className="user-list-controls">
        <label className="field grow">
          <span>Search users</span>
          <input
            type="search"
            name="userSearch"
            maxLength={200}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="user id or property value"
          />
        </label>
        <label className="field">
          <span>Sort by</span>
          <select name="userSort" value={sort} onChange={(e) => setQuery({ search, sort: e.target.value as UserSort })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {users === null ? (
        <p className="muted" aria-busy="true">
          Loading users…
        </p>
      ) : users.length === 0 && search ? (
        <div className="empty" role="status">
          <p>No users match “{search}”. The search looks at user ids and property values.</p>
        </div>
      ) : users.length === 0 ? (
        <div className="empty">
          <p>
            No users yet. Send events with a <code>user_id</code>, or call <code>POST /api/identify</code>.
          </p>
        </div>
      ) : (
        <ul className="project-list user-list">
          {users.map((user) => (
            <li key={user.userId} className="card project-item">
              <span className="user-list-name">
                <span className="avatar avatar-small" aria-hidden="true">
                  {initials(userTitle(user))}
                </span>
                <Link href={`/users/${encodeURIComponent(user.userId)}`} className="project-link">
                  {userTitle(user)}
                </Link>
              </span>
              <span className="muted small" data-testid="user-facts">
                {userTitle(user) !== user.userId && <>{user.userId} · </>}
                {user.eventCount.toLocaleString()} {user.eventCount === 1 ? 'event' : 'events'} · {sort === 'firstSeen' ? 'first seen' : 'last active'}{' '}
                <RelativeTime iso={sort === 'firstSeen' ? user.firstSeen : (user.lastActive ?? null)} />
              </span>
              <PropertySummary properties={user.properties} />
            </li>
          ))}
        </ul>
      )}
      {nextCursor && (
        <button type="button" className="button" onClick={() => void more()}>
          Load more
        </button>
      )}
    </main>
  );
}

/** How a user is named: their `name` property when they have one (set by identify), else their id. */
export function userTitle(user: Pick<AppUser, 'userId' | 'properties'>): string {
  return personName(user.userId, user.properties);
}

/** Properties a list row shows; the profile has them all, as a table. */
const SUMMARY_PROPERTIES = 3;

/**
 * A short line of the user's properties in the list: the first few as "key value", the name left
 * out (it is the row's title), long values cut with an ellipsis, and how many more the profile has.
 */
function PropertySummary({ properties }: { properties: AppUser['properties'] }) {
  const entries = Object.entries(properties).filter(([key]) => key !== 'name');
  if (entries.length === 0) return null;
  const shown = entries.slice(0, SUMMARY_PROPERTIES);
  const more = entries.length - shown.length;
  return (
    <p className="user-property-summary small" data-testid="user-property-summary">
      {shown.map(([key, value]) => {
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        return (
          <span key={key} className="user-property" title={`${key}: ${text}`}>
            <span className="muted">{key}</span> {text}
          </span>
        );
      })}
      {more > 0 && <span className="muted">+{more} more</span>}
    </p>
  );
}

import { useMemo } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useKeysetPages } from '../components/useKeysetPages.ts';
import { PageHeader } from '../components/PageHeader.tsx';
import { RelativeTime } from '../components/Time.tsx';
import * as api from '../generated/index.ts';
import type { Group } from '../types.ts';
import './groups/groups.css';

// The group's lastSeenAt is the newest event of its users (identify calls are not activity), so
// the page says "last active", as the Users page does (decision 197).
const SORTS = [
  ['lastSeen', 'Last active'],
  ['users', 'Most users'],
  ['name', 'Name'],
] as const;
type GroupSort = (typeof SORTS)[number][0];
const isSort = (text: string | null): text is GroupSort => SORTS.some(([value]) => value === text);

/** How a group is named: its `name` property when it has one, else its id. */
export function groupTitle(group: Pick<Group, 'id' | 'properties'>): string {
  const name = group.properties.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : group.id;
}

const valueText = (value: Group['properties'][string] | undefined) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The project's groups (accounts): search, sort, and property columns the reader picks. */
export function GroupsPage({ projectId }: { projectId: string }) {
  // Search, order and columns are kept in the address, so a reload and a shared link keep them.
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const requested = params.get('sort');
  const sort: GroupSort = isSort(requested) ? requested : 'lastSeen';
  const columns = params.getAll('column');
  const setQuery = (next: { search?: string; sort?: GroupSort; columns?: string[] }) => {
    const merged = { search, sort, columns, ...next };
    const out = new URLSearchParams();
    if (merged.search) out.set('search', merged.search);
    if (merged.sort !== 'lastSeen') out.set('sort', merged.sort);
    for (const column of merged.columns) out.append('column', column);
    setParams(out, { replace: true });
  };
  const query = { project: projectId, search: search || undefined, sort: sort === 'lastSeen' ? undefined : sort };

  const {
    items: groups,
    nextCursor,
    more,
  } = useKeysetPages(
    (paged, signal) => api.listGroups({ query: paged }, { signal }),
    query,
    (page) => page.groups,
    'groups',
  );

  // The columns offered: every property key of the groups shown, in the order first met.
  const keys = useMemo(() => [...new Set((groups ?? []).flatMap((group) => Object.keys(group.properties)))], [groups]);
  const toggle = (key: string, on: boolean) => setQuery({ columns: on ? [...columns, key] : columns.filter((column) => column !== key) });

  return (
    <main className="page page-narrow">
      <PageHeader title="Groups" />
      <div className="user-list-controls">
        <label className="field grow">
          <span>Search groups</span>
          <input
            type="search"
            name="groupSearch"
            maxLength={200}
            value={search}
            onChange={(e) => setQuery({ search: e.target.value })}
            placeholder="group id or property value"
          />
        </label>
        <label className="field">
          <span>Sort by</span>
          <select name="groupSort" value={sort} onChange={(e) => setQuery({ sort: e.target.value as GroupSort })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {keys.length > 0 && (
        <fieldset className="group-columns">
          <legend>Property columns</legend>
          {keys.map((key) => (
            <label key={key}>
              <input type="checkbox" name={`column-${key}`} checked={columns.includes(key)} onChange={(e) => toggle(key, e.target.checked)} /> {key}
            </label>
          ))}
        </fieldset>
      )}
      {groups === null ? (
        <p className="muted" aria-busy="true">
          Loading groups…
        </p>
      ) : groups.length === 0 && search ? (
        <div className="empty" role="status">
          <p>No groups match “{search}”. The search looks at group ids and property values.</p>
        </div>
      ) : groups.length === 0 ? (
        <div className="empty">
          <p>
            No groups yet. Call <code>POST /api/group</code> (or LogSnag's <code>group</code>) to add users to an account.
          </p>
        </div>
      ) : (
        <div className="group-table-wrap" role="region" aria-label="Groups" tabIndex={0}>
          <table className="group-table">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Users</th>
                <th scope="col">Last active</th>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={group.id}>
                  <td>
                    <Link href={`/groups/${encodeURIComponent(group.id)}`} className="group-link">
                      {groupTitle(group)}
                    </Link>
                    {groupTitle(group) !== group.id && <div className="muted small">{group.id}</div>}
                  </td>
                  <td>{group.users.toLocaleString()}</td>
                  <td>{group.lastSeenAt ? <RelativeTime iso={group.lastSeenAt} /> : <span className="muted">no events yet</span>}</td>
                  {columns.map((column) => (
                    <td key={column}>{valueText(group.properties[column])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor && (
        <button type="button" className="button" onClick={() => void more()}>
          Load more
        </button>
      )}
    </main>
  );
}

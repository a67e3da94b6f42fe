import { useState } from 'react';
import { Link } from 'wouter';
import { Skeleton } from '../components/Skeleton.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useOrganization } from '../organization.tsx';
import type { AuditEntry } from '../types.ts';
import { AUDIT_ACTIONS, actionWords, actorMatches, actorWords } from './audit/auditWords.ts';
import { useAuditPages } from './audit/useAuditPages.ts';
import { useTargetNames } from './audit/useTargetNames.ts';
import './audit/audit.css';

const OWNERS_ONLY = 'The audit log is for owners of the organization. Ask an owner if you need to know who did what.';

/** Who did what and when (extensions.md, "Audit log"): owners only; a member reads why, not an error. */
export function AuditLogPage() {
  const { info } = useOrganization();
  const notOwner = info !== null && info.role !== 'owner';
  const [action, setAction] = useState('');
  const [actorText, setActorText] = useState('');
  const { entries, nextCursor, loadingMore, error, forbidden, loadMore } = useAuditPages(action, !notOwner);

  if (notOwner || forbidden) {
    return (
      <main className="page page-narrow">
        <h1>Audit log</h1>
        <p className="banner banner-info" role="status" data-testid="audit-owners-only">
          {OWNERS_ONLY}
        </p>
      </main>
    );
  }

  const shown = entries?.filter((entry) => actorMatches(entry, actorText)) ?? null;
  return (
    <main className="page">
      <h1>Audit log</h1>
      <p className="muted">Who did what and when, newest first. Entries are kept for 365 days and cannot be changed or deleted.</p>
      <form className="inline-form audit-filters" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        <label className="field">
          <span>Action</span>
          <select name="action" value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">Every action</option>
            {AUDIT_ACTIONS.map(([value, words]) => (
              <option key={value} value={value}>
                {words} ({value})
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>Actor</span>
          <input type="search" name="actor" value={actorText} maxLength={200} placeholder="email or key name" onChange={(e) => setActorText(e.target.value)} />
        </label>
      </form>
      {error && (
        <p className="banner banner-error" role="alert">
          Could not load the audit log: {error}
        </p>
      )}
      {shown === null && !error && <Skeleton what="audit entries" />}
      {shown && entries && (
        <>
          {actorText.trim() && (
            <p className="muted small" role="status">
              {shown.length} of the {entries.length} loaded entries match “{actorText.trim()}”{nextCursor ? '; load more to look further back.' : '.'}
            </p>
          )}
          {shown.length === 0 ? (
            <p className="empty">No entries{action || actorText.trim() ? ' match these filters' : ' yet'}.</p>
          ) : (
            <AuditTable entries={shown} />
          )}
        </>
      )}
      {nextCursor && (
        <button type="button" className="button" disabled={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </main>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const nameOf = useTargetNames(entries);
  return (
    // Focusable, so a keyboard can scroll it should a long address still not fit (axe: scrollable-region-focusable).
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit log entries">
      <table className="table audit-table" aria-label="Audit log">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col" className="wide-only">
              Target
            </th>
            <th scope="col" className="wide-only">
              IP
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const actor = actorWords(entry.actor);
            return (
              <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
                <td>
                  <RelativeTime iso={entry.at} />
                </td>
                <td>
                  <div data-testid="audit-actor">{actor.label}</div>
                  <div className="muted small">{actor.kind}</div>
                  <div className="narrow-only mono small">{entry.ip ?? 'unknown address'}</div>
                </td>
                <td>
                  <div>{actionWords(entry.action)}</div>
                  <div className="mono small muted">{entry.action}</div>
                  <div className="narrow-only small">
                    <Target target={entry.target} nameOf={nameOf} />
                  </div>
                </td>
                <td className="wide-only" data-testid="audit-target">
                  <Target target={entry.target} nameOf={nameOf} />
                </td>
                <td className="wide-only mono small">{entry.ip ?? <span className="muted">unknown</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const TARGET_KINDS: Record<string, string> = {
  member: 'member',
  key: 'API key',
  project: 'project',
  hook: 'hook',
  destination: 'destination',
  alert: 'alert',
  invitation: 'invitation',
};

/** What was acted on: by name with a link when the dashboard knows it, else its kind and id. */
function Target({ target, nameOf }: { target: AuditEntry['target']; nameOf: ReturnType<typeof useTargetNames> }) {
  if (!target) return <span className="muted">no target</span>;
  const kind = TARGET_KINDS[target.type] ?? target.type;
  const named = nameOf(target);
  if (named?.href) {
    return (
      <>
        <span className="muted small">{kind}</span> <Link href={named.href}>{named.name}</Link>
      </>
    );
  }
  if (named) {
    return (
      <>
        <span className="muted small">{kind}</span> {named.name} <span className="muted small">(no longer here)</span>
      </>
    );
  }
  return (
    <>
      {kind} <span className="mono small">{target.id}</span>
    </>
  );
}

import { RelativeTime } from '../../components/Time.tsx';
import type { ApiKey, Project } from '../../types.ts';
import { accessLabel, projectNames } from './keyScope.ts';

/** An origin that wraps on a narrow screen only after "//", before a dot or a port, never inside a word. */
function BreakableOrigin({ origin }: { origin: string }) {
  const parts = origin.split(/(?<=\/\/)|(?=[.:](?!\/))/);
  return parts.map((part, index) => (
    <span key={index}>
      {index > 0 && <wbr />}
      {part}
    </span>
  ));
}

/**
 * The keys with their scope. Four columns, the details stacked inside them, so that on a phone
 * (390 px) the table fits and Revoke stays on screen; "Last used" folds away there.
 */
export function KeysTable({ keys, projects, onRevoke }: { keys: ApiKey[]; projects: Project[] | null; onRevoke: (key: ApiKey) => void }) {
  return (
    <div className="table-wrap">
      <table className="table keys-table" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Scope</th>
            <th scope="col" className="wide-only">
              Last used
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-testid="key-row">
              <td>
                <div data-testid="key-name">{key.name ?? <span className="muted">Unnamed</span>}</div>
                <div className="mono small">{key.prefix}…</div>
                <div className="muted small">
                  Created <RelativeTime iso={key.createdAt} />
                </div>
              </td>
              <td className="key-scope">
                <div data-testid="key-access">
                  <span className="badge">{accessLabel(key.access)}</span>
                </div>
                <div className="small" data-testid="key-projects">
                  {projectNames(key.projects, projects)}
                </div>
                {key.origins && (
                  <ul className="key-origins small" aria-label="Browser origins" data-testid="key-origins">
                    {key.origins.map((origin) => (
                      <li key={origin} className="mono">
                        <BreakableOrigin origin={origin} />
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="wide-only">
                <RelativeTime iso={key.lastUsedAt} />
              </td>
              <td>
                <div className="key-status">
                  {key.revokedAt ? (
                    <span className="status status-off">
                      Revoked <RelativeTime iso={key.revokedAt} />
                    </span>
                  ) : (
                    <>
                      <span className="status status-ok">Active</span>
                      <button type="button" className="button button-small button-danger-outline" onClick={() => onRevoke(key)}>
                        Revoke<span className="visually-hidden"> {key.name ?? `${key.prefix}…`}</span>
                      </button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton.tsx';
import { maskSecret, Secret } from '../../components/Secret.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import type { Hook } from '../../types.ts';
import { HookEdit } from './HookEdit.tsx';

function hookCurl(hook: Hook): string {
  return `curl -X POST '${hook.url}' \\\n  -H "Content-Type: text/plain" \\\n  --data-binary $'Payment received\\nOrder #1042 paid in full'`;
}

interface HookRowProps {
  hook: Hook;
  onChanged: (hook: Hook) => void;
  onToggle: () => void;
  onDelete: () => void;
}

/** One incoming webhook: its name (editable in place), URL, example request and actions. */
export function HookRow({ hook, onChanged, onToggle, onDelete }: HookRowProps) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="row" data-testid="hook-row">
      {editing ? (
        <HookEdit
          hook={hook}
          onSaved={(updated) => {
            onChanged(updated);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="row-head">
          <strong>{hook.name}</strong>
          <span className="chip">#{hook.category}</span>
          {hook.template && <span className="chip">{hook.template} payloads</span>}
          <span className={hook.enabled ? 'status status-ok' : 'status status-off'}>{hook.enabled ? 'Enabled' : 'Paused'}</span>
          <span className="muted small">
            created <RelativeTime iso={hook.createdAt} />
          </span>
          <button type="button" className="button button-small row-edit" onClick={() => setEditing(true)}>
            Edit<span className="visually-hidden"> name and category of {hook.name}</span>
          </button>
        </div>
      )}
      <Secret value={hook.url} label={`Webhook URL for ${hook.name}`} what={`URL of ${hook.name}`} testId="hook-url" />
      <details className="example" open>
        <summary>Example request</summary>
        {/* The URL's last segment is its token: hidden here as in the field above. */}
        <pre className="code">{maskSecret(hookCurl(hook), hook.url.slice(hook.url.lastIndexOf('/') + 1))}</pre>
        <CopyButton text={hookCurl(hook)} what="example request" />
        <p className="muted small">
          Override with headers <code>Title</code>, <code>Category</code>, <code>Tags: plan=pro,region=eu</code>, <code>Notify: 1</code>, or send JSON with{' '}
          <code>Content-Type: application/json</code>. Icons go in the query string: <code>?icon=%F0%9F%92%B0</code>.
        </p>
      </details>
      <div className="row-actions">
        <button type="button" className="button button-small" onClick={onToggle}>
          {hook.enabled ? 'Pause' : 'Resume'}
        </button>
        <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
          Delete
        </button>
      </div>
    </li>
  );
}

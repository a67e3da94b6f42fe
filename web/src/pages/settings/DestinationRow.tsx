import { type FormEvent, useEffect, useState } from 'react';
import { describeError } from '../../api.ts';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { Secret } from '../../components/Secret.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { CategoryCount, Destination, DestinationFormat, DestinationHealth, TestResult } from '../../types.ts';
import { CategoryFilter } from './CategoryFilter.tsx';
import { DestinationEdit } from './DestinationEdit.tsx';

export const FORMATS: Array<[DestinationFormat, string]> = [
  ['json', 'Signed JSON'],
  ['text', 'Text message ({text})'],
  ['embed', 'Embed ({embeds})'],
  ['email', 'Email (mailto:a@example.com,b@example.com)'],
  ['telegram', 'Telegram'],
  ['ntfy', 'ntfy'],
  ['pushover', 'Pushover'],
  ['teams', 'Microsoft Teams'],
  ['googlechat', 'Google Chat'],
  ['matrix', 'Matrix'],
  ['gotify', 'Gotify'],
];
const formatLabel = (format: DestinationFormat) => FORMATS.find(([value]) => value === format)?.[1] ?? format;
/** The row's badge: the format's name without the example the picker shows ("Email", not "Email (mailto:…)"). */
const formatBadge = (format: DestinationFormat) => formatLabel(format).replace(/\s*\(.*\)$/, '');
/** A reply code as its protocol names it: an SMTP server's 250 is not an HTTP status. */
const replyCode = (format: DestinationFormat, status: number) => `${format === 'email' ? 'SMTP' : 'HTTP'} ${status}`;

/** A datetime-local value for 24 hours ago, the usual start of an outage worth replaying. */
function dayAgoLocal(): string {
  const date = new Date(Date.now() - 24 * 3600_000);
  date.setMinutes(date.getMinutes() - date.getTimezoneOffset());
  return date.toISOString().slice(0, 16);
}

interface DestinationRowProps {
  destination: Destination;
  /** The project's categories, offered by the category filter. */
  known: CategoryCount[] | null;
  test: TestResult | undefined;
  testing: boolean;
  onChanged: (destination: Destination) => void;
  onTest: () => void;
  onToggle: () => void;
  onRotate: () => void;
  onLog: () => void;
  onDelete: () => void;
}

export function DestinationRow(props: DestinationRowProps) {
  const { destination, test: result } = props;
  const id = encodeURIComponent(destination.id);
  const [editing, setEditing] = useState(false);
  return (
    <li className="row" data-testid="destination-row">
      {editing ? (
        <DestinationEdit
          destination={destination}
          onSaved={(updated) => {
            props.onChanged(updated);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <div className="row-head">
            <strong>{destination.name}</strong>
            <span className="chip" data-testid="destination-format">
              {formatBadge(destination.format)}
            </span>
            <span className={destination.enabled ? 'status status-ok' : 'status status-off'}>{destination.enabled ? 'Enabled' : 'Disabled'}</span>
            <button type="button" className="button button-small row-edit" onClick={() => setEditing(true)}>
              Edit<span className="visually-hidden"> name and URL of {destination.name}</span>
            </button>
          </div>
          <p className="mono small break">{destination.url}</p>
        </>
      )}
      {destination.disabledReason && (
        <p className="banner banner-warning" role="status" data-testid="destination-disabled-reason">
          {destination.disabledReason}. Fix the receiver, then enable the destination and replay what failed.
        </p>
      )}
      {destination.secret && (
        <div className="secret-with-action">
          <span className="secret-caption" aria-hidden="true">
            Signing secret
          </span>
          <Secret value={destination.secret} label={`Signing secret for ${destination.name}`} what={`signing secret of ${destination.name}`} />
          <button type="button" className="button button-small" onClick={props.onRotate}>
            Rotate secret
          </button>
        </div>
      )}
      <CategoryFilter destination={destination} known={props.known} onChanged={props.onChanged} />
      <LastStatus destination={destination} />
      <HealthLine destination={destination} />
      {result && (
        <p className={result.ok ? 'banner banner-success' : 'banner banner-error'} role="status" data-testid="destination-test-result">
          Test {result.ok ? 'delivered' : 'failed'}
          {result.status !== null && ` · ${replyCode(destination.format, result.status)}`}
          {result.error && ` · ${result.error}`}
        </p>
      )}
      <div className="row-actions">
        <button type="button" className="button button-small" disabled={props.testing} onClick={props.onTest}>
          {props.testing ? 'Testing…' : 'Test'}
        </button>
        <button type="button" className="button button-small" onClick={props.onToggle}>
          {destination.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="button button-small" onClick={props.onLog}>
          Attempt log
        </button>
        <button type="button" className="button button-small button-danger-outline" onClick={props.onDelete}>
          Delete
        </button>
      </div>
      <ReplayFailed destinationId={id} name={destination.name} enabled={destination.enabled} />
    </li>
  );
}

/** The success rate of the latest 50 finished deliveries, refreshed whenever the row changes. */
function HealthLine({ destination }: { destination: Destination }) {
  const [health, setHealth] = useState<DestinationHealth | null>(null);
  const [error, setError] = useState<string | null>(null);
  const changedAt = destination.lastStatus?.at ?? '';
  useEffect(() => {
    const abort = new AbortController();
    api
      .getDestinationHealth({ path: { destinationId: destination.id } }, { signal: abort.signal })
      .then((value) => {
        setHealth(value);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (!abort.signal.aborted) setError(describeError(failure));
      });
    return () => abort.abort();
  }, [destination.id, changedAt, destination.enabled]);

  if (error) return <p className="muted small">Health unavailable: {error}</p>;
  if (!health) return null;
  if (health.successRate === null) {
    return (
      <p className="muted small" data-testid="destination-health">
        Health: no finished deliveries yet
      </p>
    );
  }
  const percent = Math.round(health.successRate * 100);
  const tone = percent >= 95 ? 'ok' : 'failed';
  return (
    <p className={`last-status ${tone} small`} data-testid="destination-health">
      Health: {percent}% of the last {health.deliveries} deliveries succeeded ({health.succeeded}/{health.deliveries})
    </p>
  );
}

function ReplayFailed({ destinationId, name, enabled }: { destinationId: string; name: string; enabled: boolean }) {
  const toast = useToast();
  const [since, setSince] = useState(dayAgoLocal);
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors({ since: ['since'] });

  const replay = async (event: FormEvent) => {
    event.preventDefault();
    const seconds = Math.floor(new Date(since).getTime() / 1000);
    if (!Number.isFinite(seconds)) {
      fields.set('since', 'Choose a date and time');
      return;
    }
    fields.clear();
    setBusy(true);
    try {
      const { queued } = await api.replayFailedDeliveries({ path: { destinationId }, body: { since: seconds } });
      toast.success(queued === 0 ? `Nothing to replay to “${name}”` : `${queued} failed deliver${queued === 1 ? 'y' : 'ies'} to “${name}” queued again`);
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not replay the failed deliveries');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="inline-form replay-form" onSubmit={(event) => void replay(event)} data-testid="destination-replay-failed">
      <label className="field">
        <span>Replay failed since</span>
        <input
          type="datetime-local"
          name="replaySince"
          value={since}
          onChange={(e) => {
            setSince(e.target.value);
            fields.clear('since');
          }}
          required
          {...fields.describe('since')}
        />
        {fields.message('since')}
      </label>
      <button type="submit" className="button button-small" disabled={busy || !enabled} title={enabled ? undefined : 'Enable the destination first'}>
        {busy ? 'Queuing…' : 'Replay failed'}
      </button>
    </form>
  );
}

function LastStatus({ destination }: { destination: Destination }) {
  const last = destination.lastStatus;
  if (!last) return <p className="muted small">No deliveries yet.</p>;
  return (
    <p className={last.ok ? 'last-status ok small' : 'last-status failed small'} data-testid="destination-last-status">
      {last.ok ? 'Last delivery succeeded' : 'Last delivery failed'}
      {last.status !== null && ` · ${replyCode(destination.format, last.status)}`}
      {last.error && ` · ${last.error}`} · <RelativeTime iso={last.at} />
    </p>
  );
}

import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { describeError, get, post } from '../../api.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { RESYNC, useLive } from '../../live.tsx';
import type { Destination, DestinationFormat, TestResult } from '../../types.ts';
import { DeliveryLog } from './DeliveryLog.tsx';

const FORMATS: Array<[DestinationFormat, string]> = [
  ['json', 'Signed JSON'],
  ['text', 'Text message ({text})'],
  ['embed', 'Embed ({embeds})'],
];
const formatLabel = (format: DestinationFormat) => FORMATS.find(([value]) => value === format)?.[1] ?? format;

type Pending = { kind: 'delete' | 'rotate'; destination: Destination } | null;

export function DestinationsSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [destinations, setDestinations] = useState<Destination[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<DestinationFormat>('json');
  const [enabled, setEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult>>({});
  const [logOf, setLogOf] = useState<Destination | null>(null);

  const base = `/api/projects/${encodeURIComponent(projectId)}/destinations`;
  const load = useCallback(async () => {
    try {
      setDestinations(await get<Destination[]>(base));
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  }, [base]);

  useEffect(() => {
    void load();
  }, [load]);

  // Changes made elsewhere (another tab, the API) show up here without a reload.
  useLive((message) => {
    if (message.type.startsWith('destination.') || message.type === RESYNC) void load();
  });

  const replace = (destination: Destination) =>
    setDestinations((list) => list?.map((item) => (item.id === destination.id ? destination : item)) ?? null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const destination = await post<Destination>(base, { name, url, format, enabled });
      setDestinations((list) => [...(list ?? []), destination]);
      setName('');
      setUrl('');
      toast.success(`Destination “${destination.name}” added`);
    } catch (failure) {
      toast.error(failure, 'Could not add the destination');
    } finally {
      setBusy(false);
    }
  };

  const action = async (destination: Destination, verb: 'enable' | 'disable' | 'rotate-secret') => {
    try {
      replace(await post<Destination>(`/api/destinations/${encodeURIComponent(destination.id)}/${verb}`));
      if (verb === 'rotate-secret') toast.success('Signing secret rotated: update the receiver with the new secret');
    } catch (failure) {
      toast.error(failure, `Could not ${verb === 'rotate-secret' ? 'rotate the secret' : verb} the destination`);
    }
  };

  const test = async (destination: Destination) => {
    setTesting(destination.id);
    try {
      const result = await post<TestResult>(`/api/destinations/${encodeURIComponent(destination.id)}/test`);
      setTests((current) => ({ ...current, [destination.id]: result }));
      void load();
    } catch (failure) {
      toast.error(failure, 'The test could not run');
    } finally {
      setTesting(null);
    }
  };

  const confirmPending = async () => {
    if (!pending) return;
    const { kind, destination } = pending;
    if (kind === 'rotate') {
      await action(destination, 'rotate-secret');
      setPending(null);
      return;
    }
    try {
      await post(`/api/destinations/${encodeURIComponent(destination.id)}/delete`);
      setDestinations((list) => list?.filter((item) => item.id !== destination.id) ?? null);
      toast.success('Destination deleted');
      setPending(null);
    } catch (failure) {
      toast.error(failure, 'Could not delete the destination');
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="destinations-title">
      <h2 id="destinations-title">Outgoing webhooks</h2>
      <p className="muted">
        Events sent with <code>notify: true</code> are delivered to every enabled destination, with up to 3 attempts.
      </p>
      <form className="form-grid" onSubmit={create}>
        <label className="field">
          <span>Name</span>
          <input name="destinationName" required value={name} onChange={(e) => setName(e.target.value)} placeholder="Team chat" />
        </label>
        <div className="field">
          <label htmlFor="destination-format">Format</label>
          <select id="destination-format" name="destinationFormat" value={format} onChange={(e) => setFormat(e.target.value as DestinationFormat)}>
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <label className="field span-2">
          <span>URL</span>
          <input name="destinationUrl" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/webhooks/eventlog" />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          <span>Enabled</span>
        </label>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add destination'}
          </button>
        </div>
      </form>
      {error && (
        <div className="banner banner-error" role="alert">
          <span>Could not load destinations: {error}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {destinations?.length === 0 && <p className="muted">No destinations yet.</p>}
      <ul className="row-list">
        {destinations?.map((destination) => {
          const result = tests[destination.id];
          return (
            <li key={destination.id} className="row" data-testid="destination-row">
              <div className="row-head">
                <strong>{destination.name}</strong>
                <span className="chip">{formatLabel(destination.format)}</span>
                <span className={destination.enabled ? 'status status-ok' : 'status status-off'}>{destination.enabled ? 'Enabled' : 'Disabled'}</span>
              </div>
              <p className="mono small break">{destination.url}</p>
              {destination.secret && (
                <div className="secret-line">
                  <label className="visually-hidden" htmlFor={`secret-${destination.id}`}>
                    Signing secret for {destination.name}
                  </label>
                  <input id={`secret-${destination.id}`} className="mono" readOnly value={destination.secret} onFocus={(e) => e.target.select()} />
                  <CopyButton text={destination.secret} what={`signing secret of ${destination.name}`} />
                  <button type="button" className="button button-small" onClick={() => setPending({ kind: 'rotate', destination })}>
                    Rotate secret
                  </button>
                </div>
              )}
              <LastStatus destination={destination} />
              {result && (
                <p className={result.ok ? 'banner banner-success' : 'banner banner-error'} role="status" data-testid="destination-test-result">
                  Test {result.ok ? 'delivered' : 'failed'}
                  {result.status !== null && ` · HTTP ${result.status}`}
                  {result.error && ` · ${result.error}`}
                </p>
              )}
              <div className="row-actions">
                <button type="button" className="button button-small" disabled={testing === destination.id} onClick={() => void test(destination)}>
                  {testing === destination.id ? 'Testing…' : 'Test'}
                </button>
                <button type="button" className="button button-small" onClick={() => void action(destination, destination.enabled ? 'disable' : 'enable')}>
                  {destination.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" className="button button-small" onClick={() => setLogOf(destination)}>
                  Attempt log
                </button>
                <button type="button" className="button button-small button-danger-outline" onClick={() => setPending({ kind: 'delete', destination })}>
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'rotate' ? 'Rotate the signing secret?' : 'Delete this destination?'}
        message={
          pending?.kind === 'rotate' ? (
            <p>The receiver will reject deliveries from “{pending.destination.name}” until it is updated with the new secret.</p>
          ) : (
            <p>“{pending?.destination.name}” will stop receiving events. This cannot be undone.</p>
          )
        }
        confirmLabel={pending?.kind === 'rotate' ? 'Rotate secret' : 'Delete destination'}
        danger
        onConfirm={() => void confirmPending()}
        onCancel={() => setPending(null)}
      />
      <DeliveryLog destination={logOf} onClose={() => setLogOf(null)} />
    </section>
  );
}

function LastStatus({ destination }: { destination: Destination }) {
  const last = destination.lastStatus;
  if (!last) return <p className="muted small">No deliveries yet.</p>;
  return (
    <p className={last.ok ? 'last-status ok small' : 'last-status failed small'} data-testid="destination-last-status">
      {last.ok ? 'Last delivery succeeded' : 'Last delivery failed'}
      {last.status !== null && ` · HTTP ${last.status}`}
      {last.error && ` · ${last.error}`} · <RelativeTime iso={last.at} />
    </p>
  );
}

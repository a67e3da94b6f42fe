import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { Destination, DestinationFormat, TestResult } from '../../types.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { CategoriesPicker } from './CategoriesPicker.tsx';
import { DestinationRow, FORMATS } from './DestinationRow.tsx';
import { CHANNEL_HELP, formatFromUrl } from './channelHelp.ts';
import { ChannelPreview } from './ChannelPreview.tsx';
import { useProjects } from '../../projects.tsx';
import { useKnownCategories } from './useKnownCategories.ts';
import { useLiveRecords } from './useLiveRecords.ts';

type Pending = { kind: 'delete' | 'rotate'; destination: Destination } | null;

export function DestinationsSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<DestinationFormat>('json');
  const [enabled, setEnabled] = useState(true);
  const [categories, setCategories] = useState<string[]>([]);
  const [groupWindow, setGroupWindow] = useState('0');
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors({ name: ['name'], url: ['url'], categories: ['categories', 'category'] });
  const [pending, setPending] = useState<Pending>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult>>({});
  const [logOf, setLogOf] = useState<Destination | null>(null);

  const known = useKnownCategories(projectId);
  const projectName = useProjects().projects?.find((project) => project.id === projectId)?.name ?? 'this project';
  const {
    records: destinations,
    error,
    reload: load,
    add,
    replace,
    remove,
  } = useLiveRecords((signal) => api.listDestinations({ path: { projectId } }, { signal }), projectId, 'destination');

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    fields.clear();
    try {
      const groupWindowSeconds = Number(groupWindow) || 0;
      const destination = await api.createDestination({
        path: { projectId },
        body: { name, url, format, enabled, categories: categories.length > 0 ? categories : null, ...(groupWindowSeconds ? { groupWindowSeconds } : {}) },
      });
      add(destination);
      setName('');
      setUrl('');
      setCategories([]);
      toast.success(`Destination “${destination.name}” added`);
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not add the destination');
    } finally {
      setBusy(false);
    }
  };

  const action = async (destination: Destination, verb: 'enable' | 'disable' | 'rotate-secret') => {
    try {
      const path = { destinationId: destination.id };
      replace(
        await (verb === 'enable'
          ? api.enableDestination({ path })
          : verb === 'disable'
            ? api.disableDestination({ path })
            : api.rotateDestinationSecret({ path })),
      );
      if (verb === 'rotate-secret') toast.success('Signing secret rotated: update the receiver with the new secret');
    } catch (failure) {
      toast.error(failure, `Could not ${verb === 'rotate-secret' ? 'rotate the secret' : verb} the destination`);
    }
  };

  const test = async (destination: Destination) => {
    setTesting(destination.id);
    try {
      const result = await api.testDestination({ path: { destinationId: destination.id } });
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
      await api.deleteDestination({ path: { destinationId: destination.id } });
      remove(destination.id);
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
        Events sent with <code>notify: true</code> are delivered to every enabled destination whose categories match, with up to 3 attempts. A destination whose
        deliveries fail 20 times in a row is disabled automatically.
      </p>
      <form className="form-grid" onSubmit={(event) => void create(event)} noValidate>
        <label className="field">
          <span>Name</span>
          <input
            name="destinationName"
            required
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fields.clear('name');
            }}
            placeholder="Team chat"
            {...fields.describe('name')}
          />
          {fields.message('name')}
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
          <input
            name="destinationUrl"
            type="url"
            required
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              const recognised = formatFromUrl(e.target.value);
              if (recognised) setFormat(recognised);
              fields.clear('url');
            }}
            placeholder="https://example.com/webhooks/eventlog"
            {...fields.describe('url')}
          />
          {fields.message('url')}
          {CHANNEL_HELP[format] && <small className="muted">Where to find it: {CHANNEL_HELP[format]}</small>}
        </label>
        {format !== 'json' && (
          <label className="field">
            <span>Group window (seconds)</span>
            <input name="groupWindowSeconds" type="number" min={0} max={3600} value={groupWindow} onChange={(e) => setGroupWindow(e.target.value)} />
            <small className="muted">0: one message per event; 10-3600: a burst goes as one message</small>
          </label>
        )}
        <ChannelPreview format={format} groupWindowSeconds={Math.max(0, Number(groupWindow) || 0)} projectId={projectId} projectName={projectName} />
        <div className="field span-2">
          <CategoriesPicker
            label="Categories (none: every category)"
            known={known}
            value={categories}
            onChange={(next) => {
              setCategories(next);
              fields.clear('categories');
            }}
            describedBy={fields.describe('categories')['aria-describedby']}
            invalid={fields.errors.categories !== undefined}
          />
          {fields.message('categories')}
        </div>
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
      <ErrorBanner what="Could not load destinations" error={error} onRetry={load} />
      {destinations === null && !error && <Skeleton rows={2} what="destinations" />}
      {destinations?.length === 0 && <p className="muted">No destinations yet.</p>}
      <ul className="row-list">
        {destinations?.map((destination) => (
          <DestinationRow
            key={destination.id}
            destination={destination}
            known={known}
            test={tests[destination.id]}
            testing={testing === destination.id}
            onChanged={replace}
            onTest={() => void test(destination)}
            onToggle={() => void action(destination, destination.enabled ? 'disable' : 'enable')}
            onRotate={() => setPending({ kind: 'rotate', destination })}
            onLog={() => setLogOf(destination)}
            onDelete={() => setPending({ kind: 'delete', destination })}
          />
        ))}
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

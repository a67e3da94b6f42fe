import { type FormEvent, useEffect, useId, useState } from 'react';
import { describeError } from '../../api.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import * as api from '../../generated/index.ts';
import { useKnownCategories } from '../settings/useKnownCategories.ts';
import type { Alert } from '../../types.ts';
import { type AlertField, type AlertSeed, checkAlertForm, fieldOfRefusal, nameFromSeed } from './alertFormWords.ts';
import { durationInWords } from './alertWords.ts';

const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 } as const;
type Unit = keyof typeof UNITS;
const RENOTIFY = [
  ['', 'Never'],
  ['900', 'Every 15 minutes'],
  ['3600', 'Every hour'],
  ['14400', 'Every 4 hours'],
  ['86400', 'Every day'],
] as const;

function splitWindow(seconds: number): { amount: string; unit: Unit } {
  const unit = (['days', 'hours', 'minutes'] as const).find((u) => seconds % UNITS[u] === 0) ?? 'seconds';
  return { amount: String(seconds / UNITS[unit]), unit };
}

/** `key:value` lines (or commas) to the filter's tags; the value stays text. */
function parseTags(text: string): Record<string, string> | undefined {
  const pairs = text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const colon = pair.indexOf(':');
      return colon < 0 ? [pair, ''] : [pair.slice(0, colon), pair.slice(colon + 1)];
    }),
  );
}

interface AlertFormProps {
  projectId: string;
  /** The alert being edited; absent for a new one. */
  alert?: Alert;
  seed?: AlertSeed;
  onSaved: (alert: Alert) => void;
  onClose: () => void;
}

/** Create or edit an alert, with a live count of what its filter matches in its window now. */
export function AlertForm({ projectId, alert, seed, onSaved, onClose }: AlertFormProps) {
  const filter = alert?.filter ?? {};
  const [name, setName] = useState(alert?.name ?? nameFromSeed(seed));
  const [category, setCategory] = useState(filter.category ?? seed?.category ?? '');
  const [tags, setTags] = useState(
    filter.tags
      ? Object.entries(filter.tags)
          .map(([k, v]) => `${k}:${String(v)}`)
          .join(', ')
      : (seed?.tags ?? []).join(', '),
  );
  const [userId, setUserId] = useState(filter.user_id ?? seed?.userId ?? '');
  const [search, setSearch] = useState(filter.search ?? seed?.search ?? '');
  const [count, setCount] = useState<'atLeast' | 'fewerThan'>(alert?.condition.count ?? 'atLeast');
  const [threshold, setThreshold] = useState(String(alert?.condition.threshold ?? 10));
  const initialWindow = splitWindow(alert?.condition.windowSeconds ?? 300);
  const [amount, setAmount] = useState(initialWindow.amount);
  const [unit, setUnit] = useState<Unit>(initialWindow.unit);
  const [eventCategory, setEventCategory] = useState(alert?.category ?? 'alerts');
  const [renotify, setRenotify] = useState(alert?.renotifySeconds ? String(alert.renotifySeconds) : '');
  const [critical, setCritical] = useState(alert?.critical ?? false);
  const [busy, setBusy] = useState(false);
  // The count is kept with the filter and window it answers: words never show another window's count.
  const [preview, setPreview] = useState<{ key: string; count: number } | null>(null);
  const [errors, setErrors] = useState<Partial<Record<AlertField, string>>>({});
  const known = useKnownCategories(projectId);
  const formId = useId();
  const errorId = (field: AlertField) => `${formId}-${field}-error`;
  const invalid = (field: AlertField) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field) } : {});
  const message = (field: AlertField) =>
    errors[field] ? (
      <span id={errorId(field)} className="field-error" data-testid={`alert-${field}-error`}>
        {errors[field]}
      </span>
    ) : null;
  const deadMansSwitch = () => {
    setCount('fewerThan');
    setThreshold('1');
    setAmount('1');
    setUnit('hours');
    if (!name.trim()) setName(`No ${category ? `${category} ` : ''}events for an hour`);
  };

  const windowSeconds = Math.round(Number(amount) * UNITS[unit]);
  const body = {
    name,
    filter: {
      ...(category ? { category } : {}),
      ...(parseTags(tags) ? { tags: parseTags(tags) } : {}),
      ...(userId ? { user_id: userId } : {}),
      ...(search ? { search } : {}),
    },
    condition: { count, threshold: Number(threshold), windowSeconds },
    category: eventCategory,
    renotifySeconds: renotify ? Number(renotify) : null,
    critical,
  };
  const previewKey = JSON.stringify([body.filter, windowSeconds]);

  const countable = Number.isInteger(windowSeconds) && windowSeconds >= 10 && windowSeconds <= 31_536_000;
  useEffect(() => {
    if (!countable) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .previewAlertFilter(
          { path: { projectId }, body: { filter: (JSON.parse(previewKey) as [Alert['filter'], number])[0], windowSeconds } },
          { signal: controller.signal },
        )
        .then((result) => setPreview({ key: previewKey, count: result.count }))
        .catch(() => setPreview(null));
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [projectId, previewKey, windowSeconds, countable]);
  const shownCount = preview?.key === previewKey ? preview.count : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const problems = checkAlertForm({ name, threshold, windowSeconds });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const saved = alert ? await api.updateAlert({ path: { alertId: alert.id }, body }) : await api.createAlert({ path: { projectId }, body });
      onSaved(saved);
    } catch (failure) {
      const { field, words } = fieldOfRefusal(describeError(failure));
      setErrors({ [field]: words });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      wide
      title={alert ? `Edit alert “${alert.name}”` : 'New alert'}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="alert-form" className="button button-primary" disabled={busy}>
            {alert ? 'Save alert' : 'Create alert'}
          </button>
        </>
      }
    >
      <form id="alert-form" className="form-grid" onSubmit={(event) => void save(event)} noValidate>
        <label className="field span-2">
          <span>Name</span>
          <input name="alertName" data-autofocus value={name} onChange={(e) => setName(e.target.value)} {...invalid('name')} />
          {message('name')}
        </label>
        <fieldset className="span-2 alert-fieldset">
          <legend>Which events count</legend>
          <div className="form-grid">
            <div className="field">
              <label htmlFor={`${formId}-category`}>Category</label>
              <select id={`${formId}-category`} name="filterCategory" value={category} onChange={(e) => setCategory(e.target.value)} {...invalid('filter')}>
                <option value="">Any category</option>
                {[...new Set([...(category ? [category] : []), ...(known ?? []).map((known) => known.name)])].map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <label className="field">
              <span>Tags (key:value, comma-separated)</span>
              <input name="filterTags" placeholder="plan:pro, env:prod" value={tags} onChange={(e) => setTags(e.target.value)} />
            </label>
            <label className="field">
              <span>User id</span>
              <input name="filterUser" placeholder="any" value={userId} onChange={(e) => setUserId(e.target.value)} />
            </label>
            <label className="field">
              <span>Search</span>
              <input name="filterSearch" placeholder="any text" value={search} onChange={(e) => setSearch(e.target.value)} />
            </label>
          </div>
          {message('filter')}
        </fieldset>
        <label className="field">
          <span>Fire when there are</span>
          <select name="countMode" value={count} onChange={(e) => setCount(e.target.value as 'atLeast' | 'fewerThan')}>
            <option value="atLeast">at least</option>
            <option value="fewerThan">fewer than</option>
          </select>
        </label>
        <label className="field">
          <span>Number of events</span>
          <input
            name="threshold"
            type="number"
            min={1}
            max={1_000_000}
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            {...invalid('threshold')}
          />
          {message('threshold')}
        </label>
        <label className="field">
          <span>In the last</span>
          <input name="windowAmount" type="number" min={1} value={amount} onChange={(e) => setAmount(e.target.value)} {...invalid('window')} />
          {message('window')}
        </label>
        <label className="field">
          <span>Unit</span>
          <select name="windowUnit" value={unit} onChange={(e) => setUnit(e.target.value as Unit)}>
            {Object.keys(UNITS).map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </label>
        <p className="span-2 alert-preview" role="status" data-testid="alert-preview">
          {!countable
            ? 'Choose a window of 10 seconds to 365 days to count matching events.'
            : shownCount === null
              ? 'Counting matching events…'
              : `${shownCount} matching ${shownCount === 1 ? 'event' : 'events'} in the last ${durationInWords(windowSeconds)} right now.`}
          {count === 'fewerThan' && threshold === '1' && ' This is a dead man’s switch: it fires when no matching event arrives within the window.'}
        </p>
        <div className="span-2">
          <button type="button" className="button button-small" onClick={deadMansSwitch}>
            Dead man’s switch: fire when nothing arrives for an hour
          </button>
        </div>
        <ErrorBanner error={errors.form ?? null} className="span-2" testId="alert-form-error" />
        <label className="field">
          <span>Category of the alert's events</span>
          <input name="alertCategory" value={eventCategory} onChange={(e) => setEventCategory(e.target.value)} {...invalid('category')} />
          {message('category')}
        </label>
        <label className="field">
          <span>Remind while firing</span>
          <select name="renotify" value={renotify} onChange={(e) => setRenotify(e.target.value)}>
            {RENOTIFY.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="toggle">
          <input type="checkbox" name="critical" checked={critical} onChange={(e) => setCritical(e.target.checked)} aria-describedby="critical-help" />
          <span>Critical</span>
        </label>
        <p className="muted" id="critical-help">
          A critical alert reaches members at once, even during their quiet hours or a snooze. A project a member set to "Nothing" still stays silent.
        </p>
      </form>
    </Dialog>
  );
}

import { type FormEvent, useCallback, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useTagKeys } from './useTagKeys.ts';

/** The chart's breakdown and tag filters, kept in the URL so a reload or a link shows the same chart. */
interface Breakdown {
  /** A tag key, or '' for by category. */
  groupBy: string;
  /** `key:value`, as the API takes them. */
  tags: string[];
}

export function useBreakdown(): [Breakdown, (change: Partial<Breakdown>) => void] {
  const [params, setParams] = useSearchParams();
  const text = params.toString();
  const breakdown = useMemo<Breakdown>(() => {
    const read = new URLSearchParams(text);
    return { groupBy: read.get('by') ?? '', tags: read.getAll('tag') };
  }, [text]);
  const update = useCallback(
    (change: Partial<Breakdown>) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        if (change.groupBy !== undefined) {
          if (change.groupBy) next.set('by', change.groupBy);
          else next.delete('by');
        }
        if (change.tags) {
          next.delete('tag');
          for (const tag of change.tags) next.append('tag', tag);
        }
        return next;
      }),
    [setParams],
  );
  return [breakdown, update];
}

/** The API parameters of a breakdown. */
export function breakdownQuery(breakdown: Breakdown): { tag?: string[]; groupBy?: string } {
  return {
    ...(breakdown.tags.length > 0 ? { tag: breakdown.tags } : {}),
    ...(breakdown.groupBy ? { groupBy: `tag:${breakdown.groupBy}` } : {}),
  };
}

/** "Break down by" a tag key, and tag filters added as `key:value` and shown as removable chips. */
export function BreakdownControls({ projectId, breakdown, update }: { projectId: string; breakdown: Breakdown; update: (change: Partial<Breakdown>) => void }) {
  const listId = useId();
  const tagKeys = useTagKeys(projectId);
  const [key, setKey] = useState(breakdown.groupBy);
  const [tag, setTag] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const applyKey = (event: FormEvent) => {
    event.preventDefault();
    update({ groupBy: key.trim() });
  };
  const addTag = (event: FormEvent) => {
    event.preventDefault();
    const text = tag.trim();
    if (text.indexOf(':') <= 0) {
      setProblem('Write a tag as key:value');
      return;
    }
    setProblem(null);
    setTag('');
    if (!breakdown.tags.includes(text)) update({ tags: [...breakdown.tags, text] });
  };
  return (
    <div className="chart-breakdown">
      <form className="chart-breakdown-form" onSubmit={applyKey} aria-label="Break down">
        <label className="field">
          <span>Break down by tag key</span>
          <input
            name="breakdownKey"
            list={listId}
            autoComplete="off"
            value={key}
            placeholder="e.g. plan (empty: by category)"
            onChange={(e) => setKey(e.target.value)}
          />
          <datalist id={listId} data-testid="tag-key-suggestions">
            {tagKeys.map((tagKey) => (
              <option key={tagKey} value={tagKey} />
            ))}
          </datalist>
        </label>
        <button type="submit" className="button button-small">
          Break down
        </button>
      </form>
      <form className="chart-breakdown-form" onSubmit={addTag} aria-label="Tag filter">
        <label className="field">
          <span>Only events with tag</span>
          <input
            name="chartTag"
            value={tag}
            placeholder="key:value"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'chart-tag-problem' : undefined}
            onChange={(e) => setTag(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-small">
          Add filter
        </button>
        {problem && (
          <p id="chart-tag-problem" className="field-error small">
            {problem}
          </p>
        )}
      </form>
      {(breakdown.tags.length > 0 || breakdown.groupBy) && (
        <div className="filter-chips" aria-label="Chart filters">
          {breakdown.groupBy && (
            <button
              type="button"
              className="chip chip-category"
              aria-label={`Remove breakdown by ${breakdown.groupBy}`}
              onClick={() => {
                setKey('');
                update({ groupBy: '' });
              }}
            >
              by {breakdown.groupBy} ×
            </button>
          )}
          {breakdown.tags.map((t) => (
            <button
              key={t}
              type="button"
              className="chip"
              aria-label={`Remove filter tag ${t}`}
              onClick={() => update({ tags: breakdown.tags.filter((x) => x !== t) })}
            >
              {t} ×
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

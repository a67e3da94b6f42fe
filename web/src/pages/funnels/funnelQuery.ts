import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';

/** One step as the editor holds it: a category ('' for any) and `key:value` tags. */
export interface StepDraft {
  category: string;
  tags: string[];
}

/** A funnel as the URL keeps it, so that a link shows the same funnel to whoever opens it. */
interface FunnelQuery {
  steps: StepDraft[];
  windowSeconds: number;
  days: number;
}

export const WINDOWS = [
  [3600, '1 hour'],
  [86_400, '1 day'],
  [604_800, '7 days'],
  [2_592_000, '30 days'],
] as const;
export const RANGES = [7, 30, 90] as const;
export const MAX_STEPS = 10;

const DEFAULT_WINDOW = 604_800;
const DEFAULT_DAYS = 30;

/** `step` parameters read `category|key:value|key:value`; the category may be empty. */
function readStep(text: string): StepDraft {
  const [category = '', ...tags] = text.split('|');
  return { category, tags: tags.filter((tag) => tag.includes(':')) };
}

const writeStep = (step: StepDraft): string => [step.category, ...step.tags].join('|');

/** The tags of a step as the API takes them: `{key: value}` from `key:value`, split at the first colon. */
export function stepFilter(step: StepDraft): { category?: string; tags?: Record<string, string> } {
  const tags = Object.fromEntries(step.tags.map((tag) => [tag.slice(0, tag.indexOf(':')), tag.slice(tag.indexOf(':') + 1)]));
  return { ...(step.category ? { category: step.category } : {}), ...(step.tags.length ? { tags } : {}) };
}

export function useFunnelQuery(): [FunnelQuery, (next: FunnelQuery) => void] {
  const [params, setParams] = useSearchParams();
  const text = params.toString();
  const query = useMemo<FunnelQuery>(() => {
    const read = new URLSearchParams(text);
    const windowSeconds = Number(read.get('window'));
    const days = Number(read.get('days'));
    return {
      steps: read.getAll('step').slice(0, MAX_STEPS).map(readStep),
      windowSeconds: WINDOWS.some(([seconds]) => seconds === windowSeconds) ? windowSeconds : DEFAULT_WINDOW,
      days: (RANGES as readonly number[]).includes(days) ? days : DEFAULT_DAYS,
    };
  }, [text]);
  const update = useCallback(
    (next: FunnelQuery) => {
      const out = new URLSearchParams();
      for (const step of next.steps) out.append('step', writeStep(step));
      out.set('window', String(next.windowSeconds));
      out.set('days', String(next.days));
      setParams(out);
    },
    [setParams],
  );
  return [query, update];
}

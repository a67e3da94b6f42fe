import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeError } from '../api.ts';
import { useToast } from '../components/Toasts.tsx';
import * as api from '../generated/index.ts';
import type { CategoryCount, FunnelResult } from '../types.ts';
import { FunnelBars } from './funnels/FunnelBars.tsx';
import { MAX_STEPS, RANGES, type StepDraft, WINDOWS, stepFilter, useFunnelQuery } from './funnels/funnelQuery.ts';
import { StepEditor } from './funnels/StepEditor.tsx';
import './funnels/funnels.css';

const DAY = 86_400;
const blankSteps = (): StepDraft[] => [
  { category: '', tags: [] },
  { category: '', tags: [] },
];

/**
 * Funnels: steps built from categories and tags, counted by POST /api/funnels. The funnel shown
 * is the one in the URL; the editor changes it on "Show funnel", so a link shares it.
 */
export default function FunnelsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [query, setQuery] = useFunnelQuery();
  const [steps, setSteps] = useState<StepDraft[]>(() => (query.steps.length >= 2 ? query.steps : blankSteps()));
  const [windowSeconds, setWindowSeconds] = useState(query.windowSeconds);
  const [days, setDays] = useState(query.days);
  const [categories, setCategories] = useState<CategoryCount[]>([]);
  const [result, setResult] = useState<FunnelResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.listCategories({ query: { project: projectId } }).then(setCategories, (failure: unknown) => toast.error(failure, 'Could not load categories'));
  }, [projectId, toast]);

  // Only the answer to the latest funnel is drawn.
  const latest = useRef(0);
  const shown = JSON.stringify(query);
  useEffect(() => {
    const current = JSON.parse(shown) as typeof query;
    if (current.steps.length < 2) {
      setResult(null);
      return;
    }
    const request = ++latest.current;
    const until = Math.floor(Date.now() / 1000);
    api
      .queryFunnel({
        body: {
          project: projectId,
          steps: current.steps.map(stepFilter),
          windowSeconds: current.windowSeconds,
          since: until - current.days * DAY,
        },
      })
      .then(
        (next) => {
          if (request !== latest.current) return;
          setResult(next);
          setError(null);
        },
        (failure: unknown) => {
          if (request !== latest.current) return;
          setError(describeError(failure));
        },
      );
  }, [projectId, shown]);

  // After "Show funnel" the result is brought into view: on a phone it sits below the editor.
  const resultSection = useRef<HTMLElement>(null);
  const reveal = useRef(false);
  useEffect(() => {
    if (!result || !reveal.current) return;
    reveal.current = false;
    resultSection.current?.scrollIntoView({ block: 'start' });
    resultSection.current?.focus({ preventScroll: true });
  }, [result]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reveal.current = true;
    setQuery({ steps, windowSeconds, days });
  };
  const change = (index: number, step: StepDraft) => setSteps((all) => all.map((s, i) => (i === index ? step : s)));

  return (
    <main className="page funnels-page">
      <div className="page-head">
        <h1>Funnels</h1>
      </div>
      <form className="funnel-editor" onSubmit={submit} aria-label="Funnel steps">
        {steps.map((step, index) => (
          <StepEditor
            key={index}
            index={index}
            step={step}
            categories={categories}
            onChange={(next) => change(index, next)}
            onRemove={steps.length > 2 ? () => setSteps((all) => all.filter((_, i) => i !== index)) : undefined}
          />
        ))}
        <div className="funnel-settings">
          {steps.length < MAX_STEPS && (
            <button type="button" className="button" onClick={() => setSteps((all) => [...all, { category: '', tags: [] }])}>
              Add step
            </button>
          )}
          <label className="field">
            <span>Within</span>
            <select name="window" value={windowSeconds} onChange={(e) => setWindowSeconds(Number(e.target.value))}>
              {WINDOWS.map(([seconds, label]) => (
                <option key={seconds} value={seconds}>
                  {label} of step 1
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Entered in</span>
            <select name="days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {RANGES.map((value) => (
                <option key={value} value={value}>
                  the last {value} days
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-primary">
            Show funnel
          </button>
        </div>
      </form>
      {error && (
        <div className="banner banner-error" role="alert">
          Could not count the funnel: {error}
        </div>
      )}
      <section className="card funnel-result" aria-label="Funnel result" ref={resultSection} tabIndex={-1}>
        {result ? (
          <FunnelBars steps={query.steps} users={result.steps.map((step) => step.users)} />
        ) : (
          <p className="muted">Choose at least two steps and show the funnel: it counts the users who went through them in order.</p>
        )}
      </section>
    </main>
  );
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeError, get, withQuery } from '../api.ts';
import { useToast } from '../components/Toasts.tsx';
import { useLive } from '../live.tsx';
import { useDarkTheme } from '../theme.ts';
import type { CategoryCount, ChartSeries } from '../types.ts';
import { BreakdownControls, breakdownParams, useBreakdown } from './charts/BreakdownControls.tsx';
import { CategoryPicker } from './charts/CategoryPicker.tsx';
import { CategoryTotals } from './charts/CategoryTotals.tsx';
import { ChartLegend } from './charts/ChartLegend.tsx';
import { buildStacks, byWeek, dayAxis } from './charts/chartData.ts';
import { formatCount, shortDay } from './charts/format.ts';
import { StackedBars } from './charts/StackedBars.tsx';
import './charts/charts.css';

const WINDOWS = [7, 30, 90, 365] as const;
const LIVE_REFRESH_MS = 3000;

/** Whether a media query matches now, following its changes. */
function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setMatches(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

export default function ChartsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const dark = useDarkTheme();
  const narrow = useMedia('(max-width: 600px)');
  const [days, setDays] = useState<number>(30);
  const [category, setCategory] = useState('');
  const [categories, setCategories] = useState<CategoryCount[]>([]);
  const [series, setSeries] = useState<ChartSeries | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [breakdown, updateBreakdown] = useBreakdown();
  const extra = breakdownParams(breakdown).toString();

  useEffect(() => {
    get<CategoryCount[]>(withQuery('/api/categories', { project: projectId })).then(setCategories, (failure: unknown) =>
      toast.error(failure, 'Could not load categories'),
    );
  }, [projectId, toast]);

  // Answers can arrive out of order when the window and the category change quickly: only the
  // answer to the latest request is drawn.
  const latest = useRef(0);
  const load = useCallback(async () => {
    const request = ++latest.current;
    try {
      const path = withQuery('/api/charts', { project: projectId, days, category });
      const next = await get<ChartSeries>(extra ? `${path}&${extra}` : path);
      if (request !== latest.current) return;
      setSeries(next);
      setError(null);
    } catch (failure) {
      if (request !== latest.current) return;
      setError(describeError(failure));
      toast.error(failure, 'Could not load the chart');
    }
  }, [projectId, days, category, extra, toast]);

  useEffect(() => {
    void load();
  }, [load]);

  const liveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(liveTimer.current), []);
  useLive((message) => {
    if (!message.type.startsWith('event.') && message.type !== 'import.completed') return;
    if (liveTimer.current) return;
    liveTimer.current = setTimeout(() => {
      liveTimer.current = undefined;
      void load();
    }, LIVE_REFRESH_MS);
  });

  const stacks = useMemo(() => (series ? buildStacks(series, dayAxis(days, series)) : null), [series, days]);
  // Bars thinner than a few pixels read as a smear: long windows are drawn per week.
  const unit = days > 120 || (narrow && days > 45) ? 'week' : 'day';
  const drawn = useMemo(() => (stacks && unit === 'week' ? byWeek(stacks) : stacks), [stacks, unit]);
  const empty = stacks !== null && stacks.total === 0;
  const busiest = stacks?.dayTotals.reduce((best, count, index, all) => (count > (all[best] ?? 0) ? index : best), 0) ?? 0;
  const toggle = (label: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(label)) next.add(label);
      return next;
    });

  return (
    <main className="page charts-page">
      <div className="page-head">
        <h1>Charts</h1>
        <div className="chart-controls">
          <div className="chart-windows" role="group" aria-label="Time window">
            {WINDOWS.map((value) => (
              <button key={value} type="button" aria-pressed={days === value} className={days === value ? 'active' : ''} onClick={() => setDays(value)}>
                {value === 365 ? '1 year' : `${value} days`}
              </button>
            ))}
          </div>
          <CategoryPicker
            categories={categories}
            value={category}
            onChange={(next) => {
              setCategory(next);
              setHidden(new Set());
            }}
          />
        </div>
      </div>
      <BreakdownControls
        projectId={projectId}
        breakdown={breakdown}
        update={(change) => {
          updateBreakdown(change);
          setHidden(new Set());
        }}
      />
      {error && (
        <div className="banner banner-error" role="alert">
          Could not load the chart: {error}
        </div>
      )}
      <section className="card chart-card" aria-label={`Events per ${unit}`}>
        {stacks && (
          <dl className="chart-summary">
            <div>
              <dt>Events</dt>
              <dd data-testid="chart-total">{formatCount(stacks.total)}</dd>
            </div>
            <div>
              <dt>Per day</dt>
              <dd>{formatCount(Math.round((stacks.total / Math.max(stacks.days.length, 1)) * 10) / 10)}</dd>
            </div>
            {!empty && (
              <div>
                <dt>Busiest day</dt>
                <dd>
                  {shortDay(stacks.days[busiest] ?? '')} · {formatCount(stacks.dayTotals[busiest] ?? 0)}
                </dd>
              </div>
            )}
            <div>
              <dt>Bars</dt>
              <dd className="chart-unit">{unit === 'week' ? 'Weeks' : 'Days'}</dd>
            </div>
          </dl>
        )}
        <div className="chart-box">
          {drawn ? (
            <StackedBars stacks={drawn} unit={unit} hidden={hidden} dark={dark} label={`Events per ${unit}, stacked by ${breakdown.groupBy ? `tag ${breakdown.groupBy}` : 'category'}, over the last ${days} days`} />
          ) : (
            <div className="chart-loading" aria-label="Loading the chart" />
          )}
          {empty && <p className="chart-empty muted">No events in this window.</p>}
        </div>
        {stacks && stacks.groups.length > 0 && <ChartLegend groups={stacks.groups} total={stacks.total} hidden={hidden} onToggle={toggle} />}
      </section>
      {stacks && stacks.ranking.length > 0 && <CategoryTotals stacks={stacks} days={days} tagKey={breakdown.groupBy || null} />}
    </main>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import { useDarkTheme } from '../theme.ts';
import { BreakdownControls, breakdownQuery, useBreakdown } from './charts/BreakdownControls.tsx';
import { CategoryPicker } from './charts/CategoryPicker.tsx';
import { CategoryTotals } from './charts/CategoryTotals.tsx';
import { ChartLegend } from './charts/ChartLegend.tsx';
import { buildStacks, byWeek, dayAxis } from './charts/chartData.ts';
import { formatCount, shortDay } from './charts/format.ts';
import { StackedBars } from './charts/StackedBars.tsx';
import './charts/charts.css';

const WINDOWS = [7, 30, 90, 365] as const;

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
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [breakdown, updateBreakdown] = useBreakdown();
  const extra = JSON.stringify(breakdownQuery(breakdown));

  const { data: categories, error: categoriesError } = useResource((signal) => api.listCategories({ query: { project: projectId } }, { signal }), [projectId]);
  useEffect(() => {
    if (categoriesError) toast.error(categoriesError, 'Could not load categories');
  }, [categoriesError, toast]);

  // The window and the category can change faster than the server answers: the resource draws
  // only the answer to the latest request.
  const { data: series, error } = useResource(
    (signal) =>
      api.getCharts(
        { query: { project: projectId, days: String(days), category: category || undefined, ...(JSON.parse(extra) as ReturnType<typeof breakdownQuery>) } },
        { signal },
      ),
    [projectId, days, category, extra],
    { live: (message) => message.type.startsWith('event.') || message.type === 'import.completed' },
  );
  useEffect(() => {
    if (error) toast.error(error, 'Could not load the chart');
  }, [error, toast]);

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
      <PageHeader
        title="Charts"
        actions={
          <div className="chart-controls">
            <div className="chart-windows" role="group" aria-label="Time window">
              {WINDOWS.map((value) => (
                <button key={value} type="button" aria-pressed={days === value} className={days === value ? 'active' : ''} onClick={() => setDays(value)}>
                  {value === 365 ? '1 year' : `${value} days`}
                </button>
              ))}
            </div>
            <CategoryPicker
              categories={categories ?? []}
              value={category}
              onChange={(next) => {
                setCategory(next);
                setHidden(new Set());
              }}
            />
          </div>
        }
      />
      <BreakdownControls
        projectId={projectId}
        breakdown={breakdown}
        update={(change) => {
          updateBreakdown(change);
          setHidden(new Set());
        }}
      />
      <ErrorBanner what="Could not load the chart" error={error} />
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
            <StackedBars
              stacks={drawn}
              unit={unit}
              hidden={hidden}
              dark={dark}
              label={`Events per ${unit}, stacked by ${breakdown.groupBy ? `tag ${breakdown.groupBy}` : 'category'}, over the last ${days} days`}
            />
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

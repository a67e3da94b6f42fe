import {
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, get, withQuery } from '../api.ts';
import { useToast } from '../components/Toasts.tsx';
import { useLive } from '../live.tsx';
import type { CategoryCount, ChartSeries } from '../types.ts';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Tooltip, Legend, Filler);

const WINDOWS = [7, 30, 90, 365] as const;
const PALETTE = ['#5b5bd6', '#e5484d', '#12a594', '#f76b15', '#8e4ec6', '#0090ff', '#ffb224', '#d6409f', '#46a758', '#6e56cf'];
const LIVE_REFRESH_MS = 3000;

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Every day of the window (missing days count zero), plus any day the server bucketed outside it. */
export function dayAxis(days: number, series: ChartSeries, today = new Date()): string[] {
  const labels = new Set<string>();
  for (let back = days - 1; back >= 0; back--) {
    const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() - back);
    labels.add(isoDay(day));
  }
  for (const points of Object.values(series)) for (const point of points) labels.add(point.day);
  return [...labels].sort();
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** `2026-03-07` as the reader's short date ("Mar 7"); the day string is a calendar date, not an instant. */
function shortDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return dayFormat.format(new Date(year, month - 1, date));
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export default function ChartsPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [days, setDays] = useState<number>(30);
  const [category, setCategory] = useState('');
  const [categories, setCategories] = useState<CategoryCount[]>([]);
  const [series, setSeries] = useState<ChartSeries | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'line'> | null>(null);
  const [scheme, setScheme] = useState(() => window.matchMedia('(prefers-color-scheme: dark)').matches);

  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setScheme(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

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
      const next = await get<ChartSeries>(withQuery('/api/charts', { project: projectId, days, category }));
      if (request !== latest.current) return;
      setSeries(next);
      setError(null);
    } catch (failure) {
      if (request !== latest.current) return;
      setError(describeError(failure));
      toast.error(failure, 'Could not load the chart');
    }
  }, [projectId, days, category, toast]);

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

  useEffect(() => {
    const node = canvas.current;
    if (!node || !series) return;
    const labels = dayAxis(days, series);
    const names = Object.keys(series).sort();
    const datasets = names.map((name, index) => {
      const counts = new Map((series[name] ?? []).map((point) => [point.day, point.count]));
      const color = PALETTE[index % PALETTE.length] ?? '#5b5bd6';
      return {
        label: name,
        data: labels.map((day) => counts.get(day) ?? 0),
        borderColor: color,
        backgroundColor: `${color}22`,
        pointRadius: labels.length > 60 ? 0 : 2.5,
        borderWidth: 2,
        tension: 0.3,
        cubicInterpolationMode: 'monotone' as const,
        fill: names.length === 1,
      };
    });
    const text = cssVar('--text-muted', '#666');
    const grid = cssVar('--border', '#ddd');
    chart.current?.destroy();
    chart.current = new Chart(node, {
      type: 'line',
      data: { labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            ticks: {
              color: text,
              maxRotation: 0,
              autoSkip: true,
              maxTicksLimit: 8,
              callback(value) {
                return shortDay(this.getLabelForValue(Number(value)));
              },
            },
            grid: { color: grid },
          },
          y: { beginAtZero: true, ticks: { color: text, precision: 0 }, grid: { color: grid } },
        },
        plugins: { legend: { labels: { color: text, boxWidth: 12 } } },
      },
    });
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [series, days, scheme]);

  const totals = series
    ? Object.entries(series)
        .map(([name, points]) => ({ name, total: points.reduce((sum, point) => sum + point.count, 0) }))
        .sort((a, b) => b.total - a.total)
    : [];
  const empty = series !== null && totals.every((row) => row.total === 0);

  return (
    <main className="page">
      <div className="page-head">
        <h1>Charts</h1>
        <div className="chart-controls">
          <div className="segmented" role="group" aria-label="Time window">
            {WINDOWS.map((value) => (
              <button key={value} type="button" aria-pressed={days === value} className={days === value ? 'active' : ''} onClick={() => setDays(value)}>
                {value === 365 ? '1 year' : `${value} days`}
              </button>
            ))}
          </div>
          <div className="field field-inline">
            <label htmlFor="chart-category">Category</label>
            <select id="chart-category" value={category} onChange={(event) => setCategory(event.target.value)}>
              <option value="">All categories</option>
              {categories.map((item) => (
                <option key={item.name} value={item.name}>
                  {item.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {error && (
        <div className="banner banner-error" role="alert">
          Could not load the chart: {error}
        </div>
      )}
      <div className="card chart-card">
        <div className="chart-box">
          <canvas ref={canvas} role="img" aria-label={`Events per day per category over the last ${days} days`} data-testid="chart-canvas" />
          {empty && <p className="chart-empty muted">No events in this window.</p>}
        </div>
      </div>
      {totals.length > 0 && (
        <table className="table totals" aria-label={`Totals over the last ${days} days`}>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" className="num">
                Events
              </th>
            </tr>
          </thead>
          <tbody>
            {totals.map((row) => (
              <tr key={row.name}>
                <td>{row.name}</td>
                <td className="num">{row.total.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

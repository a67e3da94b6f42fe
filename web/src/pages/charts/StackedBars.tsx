import { BarController, BarElement, CategoryScale, Chart, LinearScale, type Plugin, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import type { Stacks } from './chartData.ts';
import { formatCount, shortDay } from './format.ts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Narrower than this, a bar has no room for its day's total above it; the tooltip still has it. */
const MIN_BAR_WIDTH_FOR_TOTAL = 22;

/** Writes each day's total above its stack when the bars are wide enough to hold the figure. */
function dayTotalsPlugin(dayTotals: number[], color: string): Plugin<'bar'> {
  return {
    id: 'dayTotals',
    afterDatasetsDraw(chart) {
      const { ctx, scales } = chart;
      const x = scales.x;
      const y = scales.y;
      if (!x || !y || dayTotals.length === 0) return;
      const slot = (x.right - x.left) / dayTotals.length;
      if (slot < MIN_BAR_WIDTH_FOR_TOTAL) return;
      ctx.save();
      ctx.fillStyle = color;
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      dayTotals.forEach((total, index) => {
        if (total === 0) return;
        const label = formatCount(total);
        if (ctx.measureText(label).width > slot) return;
        ctx.fillText(label, x.getPixelForValue(index), y.getPixelForValue(total) - 3);
      });
      ctx.restore();
    },
  };
}

interface Props {
  stacks: Stacks;
  /** Labels of the stacks the reader switched off in the legend. */
  hidden: Set<string>;
  /** Changes when the colour scheme does, so the axes are redrawn in the new colours. */
  dark: boolean;
  /** What one bar holds: the tooltip names a week by its first day. */
  unit: 'day' | 'week';
  label: string;
}

/** Stacked bars per day, one colour per stack, each day's total on top and in the tooltip. */
export function StackedBars({ stacks, unit, hidden, dark, label }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const node = canvas.current;
    if (!node) return;
    const text = cssVar('--text-muted', dark ? '#9a9fab' : '#646a76');
    const strong = cssVar('--text', dark ? '#e9eaee' : '#1b1d22');
    const grid = cssVar('--border', dark ? '#2d3038' : '#e2e4e9');
    const surface = cssVar('--surface', dark ? '#1a1c21' : '#ffffff');
    const visibleTotals = stacks.days.map((_, index) =>
      stacks.groups.reduce((sum, group) => sum + (hidden.has(group.label) ? 0 : (group.counts[index] ?? 0)), 0),
    );
    const narrow = node.parentElement ? node.parentElement.clientWidth < 560 : false;
    const chart = new Chart<'bar'>(node, {
      type: 'bar',
      data: {
        labels: stacks.days,
        datasets: stacks.groups.map((group) => ({
          label: group.label,
          data: group.counts,
          hidden: hidden.has(group.label),
          backgroundColor: group.color,
          hoverBackgroundColor: group.color,
          // A hairline of the card's colour between stacked segments keeps neighbours apart.
          borderColor: surface,
          borderWidth: { top: 1, bottom: 0, left: 0, right: 0 },
          borderSkipped: false,
          maxBarThickness: 48,
          categoryPercentage: 0.86,
          barPercentage: 1,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        layout: { padding: { top: 18 } },
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            stacked: true,
            grid: { display: false },
            ticks: {
              color: text,
              maxRotation: 0,
              autoSkip: true,
              maxTicksLimit: narrow ? 4 : 8,
              callback(value) {
                return shortDay(this.getLabelForValue(Number(value)));
              },
            },
          },
          y: {
            stacked: true,
            beginAtZero: true,
            grace: '8%',
            border: { display: false },
            grid: { color: grid },
            ticks: { color: text, precision: 0, maxTicksLimit: 6, callback: (value) => formatCount(Number(value)) },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            // Only the stacks with events that day, busiest first; the total closes the list.
            filter: (item) => Number(item.raw) > 0,
            itemSort: (a, b) => Number(b.raw) - Number(a.raw),
            callbacks: {
              title: (items) => {
                const day = items[0] ? shortDay(String(items[0].label), true) : '';
                return unit === 'week' ? `Week of ${day}` : day;
              },
              label: (item) => ` ${item.dataset.label ?? ''}: ${formatCount(Number(item.raw))}`,
              footer: (items) => `Total: ${formatCount(visibleTotals[items[0]?.dataIndex ?? 0] ?? 0)}`,
            },
          },
        },
      },
      plugins: [dayTotalsPlugin(visibleTotals, strong)],
    });
    return () => chart.destroy();
  }, [stacks, unit, hidden, dark]);

  return <canvas ref={canvas} role="img" aria-label={label} data-testid="chart-canvas" />;
}

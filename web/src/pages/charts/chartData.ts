// What the chart draws, worked out from /api/charts without the DOM: the day axis, the busiest
// categories with a colour each, everything else folded into "Other", and the totals.

import type { ChartSeries } from '../../types.ts';

/**
 * Nine hues a reader tells apart (one blue, one purple, one red...) that hold at least 3:1
 * against both the light and the dark surface, then the neutral grey of "Other".
 */
export const PALETTE = ['#4e79a7', '#d9700f', '#4e9a44', '#e15759', '#a66f98', '#a98a12', '#2e9696', '#d9628a', '#9c755f'] as const;
export const OTHER_COLOR = '#858892';
/** The server's key for events without the tag a chart is broken down by. */
const NO_VALUE_LABEL = '(none)';
const NO_VALUE_COLOR = '#b4b7bf';
const TOP_CATEGORIES = PALETTE.length;
export const OTHER_LABEL = 'Other';

export interface StackGroup {
  /** The category, or "Other" for the rest folded together. */
  label: string;
  color: string;
  /** Count per day of the axis. */
  counts: number[];
  total: number;
  /** The categories folded into "Other"; empty for a single category. */
  members: string[];
}

export interface Stacks {
  days: string[];
  groups: StackGroup[];
  dayTotals: number[];
  total: number;
  /** Every category with its total, busiest first (ties by name). */
  ranking: Array<{ name: string; total: number; color: string }>;
}

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Every day of the window (missing days count zero), plus any day the server bucketed outside it. */
export function dayAxis(days: number, series: ChartSeries, today = new Date()): string[] {
  const labels = new Set<string>();
  for (let back = days - 1; back >= 0; back--) {
    labels.add(isoDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - back)));
  }
  for (const points of Object.values(series)) for (const point of points) labels.add(point.day);
  return [...labels].sort();
}

/** The busiest `TOP_CATEGORIES` categories as their own stacks, the rest as one "Other" stack. */
export function buildStacks(series: ChartSeries, days: string[]): Stacks {
  const position = new Map(days.map((day, index) => [day, index]));
  const perCategory = Object.entries(series).map(([name, points]) => {
    const counts = days.map(() => 0);
    for (const point of points) {
      const index = position.get(point.day);
      if (index !== undefined) counts[index] = (counts[index] ?? 0) + point.count;
    }
    return { name, counts, total: counts.reduce((sum, count) => sum + count, 0) };
  });
  perCategory.sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // With exactly one category too many, "Other" would hold one: show it by name instead.
  const foldAt = perCategory.length > TOP_CATEGORIES + 1 ? TOP_CATEGORIES : perCategory.length;
  // Events without the tag ("(none)") are grey and take no colour from the values that exist.
  const paletteIndex = new Map<number, number>();
  perCategory.forEach((category, index) => {
    if (category.name !== NO_VALUE_LABEL) paletteIndex.set(index, paletteIndex.size);
  });
  const colorOf = (index: number) => {
    if (index >= foldAt) return OTHER_COLOR;
    const slot = paletteIndex.get(index);
    return slot === undefined ? NO_VALUE_COLOR : (PALETTE[slot] ?? OTHER_COLOR);
  };
  const groups: StackGroup[] = perCategory.slice(0, foldAt).map((category, index) => ({
    label: category.name,
    color: colorOf(index),
    counts: category.counts,
    total: category.total,
    members: [],
  }));
  const rest = perCategory.slice(foldAt);
  if (rest.length > 0) {
    groups.push({
      label: OTHER_LABEL,
      color: OTHER_COLOR,
      counts: days.map((_, index) => rest.reduce((sum, category) => sum + (category.counts[index] ?? 0), 0)),
      total: rest.reduce((sum, category) => sum + category.total, 0),
      members: rest.map((category) => category.name),
    });
  }
  const dayTotals = days.map((_, index) => groups.reduce((sum, group) => sum + (group.counts[index] ?? 0), 0));
  return {
    days,
    groups,
    dayTotals,
    total: dayTotals.reduce((sum, count) => sum + count, 0),
    ranking: perCategory.map((category, index) => ({ name: category.name, total: category.total, color: colorOf(index) })),
  };
}

/**
 * The same stacks summed per week (seven days ending on the last day of the axis; the first week
 * may be shorter), labelled by each week's first day: a year of days is a smear of hairlines, a
 * year of weeks reads.
 */
export function byWeek(stacks: Stacks): Stacks {
  const size = 7;
  const starts: number[] = [];
  for (let end = stacks.days.length; end > 0; end -= size) starts.unshift(Math.max(0, end - size));
  const sum = (counts: number[]) =>
    starts.map((start, index) => counts.slice(start, starts[index + 1] ?? counts.length).reduce((total, count) => total + count, 0));
  return {
    ...stacks,
    days: starts.map((start) => stacks.days[start] ?? ''),
    groups: stacks.groups.map((group) => ({ ...group, counts: sum(group.counts) })),
    dayTotals: sum(stacks.dayTotals),
  };
}

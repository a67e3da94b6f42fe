// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// What the Charts page draws (web/src/pages/charts/chartData.ts): the day axis, the busiest
// categories in their own colours, the rest folded into "Other", and the totals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_COLOR, OTHER_LABEL, PALETTE, buildStacks, byWeek, dayAxis } from '../../web/src/pages/charts/chartData.ts';

describe('chart data', () => {
  it('lists every day of the window, oldest first, plus days the server put outside it', () => {
    const axis = dayAxis(3, { a: [{ day: '2026-03-01', count: 1 }] }, new Date(2026, 2, 10));
    assert.deepEqual(axis, ['2026-03-01', '2026-03-08', '2026-03-09', '2026-03-10']);
  });

  it('stacks the nine busiest categories and folds the rest into Other', () => {
    const series = Object.fromEntries(
      Array.from({ length: 100 }, (_, index) => [`category-${String(index).padStart(3, '0')}`, [{ day: '2026-03-10', count: 100 - index }]]),
    );
    series['category-050']?.push({ day: '2026-03-09', count: 7 });
    const stacks = buildStacks(series, ['2026-03-09', '2026-03-10']);
    assert.equal(stacks.groups.length, 10);
    assert.deepEqual(
      stacks.groups.slice(0, 9).map((group) => group.label),
      Array.from({ length: 9 }, (_, index) => `category-00${index}`),
    );
    const other = stacks.groups[9];
    assert.equal(other?.label, OTHER_LABEL);
    assert.equal(other?.members.length, 91);
    assert.deepEqual(other?.counts, [7, Array.from({ length: 91 }, (_, n) => 91 - n).reduce((a, b) => a + b, 0)]);
    assert.equal(new Set(stacks.groups.map((group) => group.color)).size, 10, 'ten distinct colours');
    assert.deepEqual(
      stacks.groups.map((group) => group.color),
      [...PALETTE, OTHER_COLOR],
    );
    const everything = Array.from({ length: 100 }, (_, index) => 100 - index).reduce((a, b) => a + b, 0) + 7;
    assert.equal(stacks.total, everything);
    assert.deepEqual(stacks.dayTotals, [7, everything - 7]);
    assert.equal(stacks.ranking.length, 100);
    assert.equal(stacks.ranking[99]?.color, OTHER_COLOR);
  });

  it('names a tenth category instead of folding it alone, and orders ties by name', () => {
    const series = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`c${9 - index}`, [{ day: '2026-03-10', count: 1 }]]));
    const stacks = buildStacks(series, ['2026-03-10']);
    assert.deepEqual(
      stacks.groups.map((group) => group.label),
      ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'],
    );
    assert.ok(stacks.groups.every((group) => group.members.length === 0));
    assert.deepEqual(buildStacks({}, ['2026-03-10']), { days: ['2026-03-10'], groups: [], dayTotals: [0], total: 0, ranking: [] });
  });
});

describe('chart data by week', () => {
  it('sums seven days ending on the last day, the first week shorter', () => {
    const days = Array.from({ length: 10 }, (_, index) => `2026-03-${String(index + 1).padStart(2, '0')}`);
    const stacks = buildStacks({ a: days.map((day) => ({ day, count: 1 })), b: [{ day: '2026-03-10', count: 5 }] }, days);
    const weeks = byWeek(stacks);
    assert.deepEqual(weeks.days, ['2026-03-01', '2026-03-04']);
    assert.deepEqual(
      weeks.groups.map((group) => group.counts),
      [
        [3, 7],
        [0, 5],
      ],
    );
    assert.deepEqual(weeks.dayTotals, [3, 12]);
    assert.equal(weeks.total, stacks.total);
  });

  it('greys events without the tag, "(none)", and gives the first colour to the busiest value (issue 49, point 14)', () => {
    const stacks = buildStacks(
      { '(none)': [{ day: '2026-03-10', count: 9 }], pro: [{ day: '2026-03-10', count: 5 }], free: [{ day: '2026-03-10', count: 2 }] },
      ['2026-03-10'],
    );
    const colours = Object.fromEntries(stacks.ranking.map((row) => [row.name, row.color]));
    assert.equal(colours.pro, PALETTE[0]);
    assert.equal(colours.free, PALETTE[1]);
    assert.ok(!(PALETTE as readonly string[]).includes(colours['(none)'] ?? ''), 'no palette colour for "(none)"');
    assert.notEqual(colours['(none)'], OTHER_COLOR);
  });
});

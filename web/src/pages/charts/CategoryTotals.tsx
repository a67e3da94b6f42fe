import { useState } from 'react';
import type { Stacks } from './chartData.ts';
import { formatCount } from './format.ts';

const COLLAPSED_ROWS = 10;

/**
 * Every category's total over the window, busiest first, or every value's of the tag the chart
 * is broken down by; a long list opens on request.
 */
export function CategoryTotals({ stacks, days, tagKey }: { stacks: Stacks; days: number; tagKey: string | null }) {
  const what = tagKey === null ? 'categories' : 'values';
  const [expanded, setExpanded] = useState(false);
  const rows = stacks.ranking;
  const collapsible = rows.length > COLLAPSED_ROWS + 2;
  const shown = collapsible && !expanded ? rows.slice(0, COLLAPSED_ROWS) : rows;
  return (
    <div className="chart-totals-wrap">
      <table className="table chart-totals" aria-label={`Totals over the last ${days} days`}>
        <thead>
          <tr>
            <th scope="col">{tagKey === null ? 'Category' : `Tag ${tagKey}`}</th>
            <th scope="col" className="num">
              Events
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={row.name}>
              <td className="chart-totals-name">
                <span className="chart-swatch" style={{ background: row.color }} aria-hidden="true" />
                {row.name}
              </td>
              <td className="num">{formatCount(row.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All {what}</th>
            <td className="num">{formatCount(stacks.total)}</td>
          </tr>
        </tfoot>
      </table>
      {collapsible && (
        <button type="button" className="button button-small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show the busiest 10' : `Show all ${rows.length} ${what}`}
        </button>
      )}
    </div>
  );
}

import type { StackGroup } from './chartData.ts';
import { formatCount } from './format.ts';
import { MiddleEllipsis } from './MiddleEllipsis.tsx';

interface Props {
  groups: StackGroup[];
  total: number;
  hidden: Set<string>;
  onToggle: (label: string) => void;
}

/**
 * The legend below the plot, never over it: at most ten entries (the busiest nine and "Other"),
 * each a button that shows or hides its stack. Long names are cut with an ellipsis; the full
 * name is in the title and the accessible name.
 */
export function ChartLegend({ groups, total, hidden, onToggle }: Props) {
  return (
    <ul className="chart-legend" aria-label="Legend">
      {groups.map((group) => {
        const share = total > 0 ? Math.round((group.total / total) * 100) : 0;
        const name = group.members.length > 0 ? `${group.label} (${group.members.length} categories)` : group.label;
        const off = hidden.has(group.label);
        return (
          <li key={group.label}>
            <button
              type="button"
              className="chart-legend-item"
              aria-pressed={!off}
              title={group.members.length > 0 ? `${name}: ${group.members.join(', ')}` : name}
              onClick={() => onToggle(group.label)}
            >
              <span className="chart-swatch" style={{ background: group.color }} aria-hidden="true" />
              <MiddleEllipsis className="chart-legend-name" text={name} />
              {/* Its name is its visible text (WCAG 2.5.3): the name, a space, the count and share. */}{' '}
              <span className="chart-legend-count">
                {formatCount(group.total)}
                <span className="chart-legend-share"> · {share}%</span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

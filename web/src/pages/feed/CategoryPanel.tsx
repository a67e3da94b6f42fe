import type { CategoryCount } from '../../types.ts';

interface CategoryPanelProps {
  categories: CategoryCount[] | null;
  selected: string | null;
  onSelect: (category: string | null) => void;
  /** Filters besides the category are on, and the counts do not follow them. */
  totalsOnly: boolean;
}

/**
 * The feed's category filter with all-time counts: a sidebar on wide screens, a row of chips on
 * phones. The counts are the project's totals (kept per category as events are written); with a
 * search, tag, user, favorites or time filter on, a note says the counts do not follow them.
 */
export function CategoryPanel({ categories, selected, onSelect, totalsOnly }: CategoryPanelProps) {
  const total = categories?.reduce((sum, item) => sum + item.count, 0) ?? null;
  return (
    <aside className="category-panel" aria-label="Categories">
      <h2 className="panel-title">Categories</h2>
      {totalsOnly && (
        <p className="category-note" data-testid="category-totals-note">
          Counts are all-time totals, without the other filters.
        </p>
      )}
      <ul className="category-list">
        <li>
          <button type="button" className={selected === null ? 'category active' : 'category'} aria-pressed={selected === null} onClick={() => onSelect(null)}>
            <span className="category-name">All events</span>
            {total !== null && <span className="count">{total.toLocaleString()}</span>}
          </button>
        </li>
        {categories?.map((item) => (
          <li key={item.name}>
            <button
              type="button"
              className={selected === item.name ? 'category active' : 'category'}
              aria-pressed={selected === item.name}
              onClick={() => onSelect(selected === item.name ? null : item.name)}
            >
              <span className="category-name">{item.name}</span>
              <span className="count">{item.count.toLocaleString()}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}

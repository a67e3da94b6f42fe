import type { CategoryCount } from '../../types.ts';

interface CategoryPanelProps {
  categories: CategoryCount[] | null;
  selected: string | null;
  onSelect: (category: string | null) => void;
}

/** The feed's category filter with all-time counts: a sidebar on wide screens, a row of chips on phones. */
export function CategoryPanel({ categories, selected, onSelect }: CategoryPanelProps) {
  const total = categories?.reduce((sum, item) => sum + item.count, 0) ?? null;
  return (
    <aside className="category-panel" aria-label="Categories">
      <h2 className="panel-title">Categories</h2>
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

import { type KeyboardEvent, useRef, useState } from 'react';
import type { CategoryCount } from '../../types.ts';

interface CategoryPanelProps {
  categories: CategoryCount[] | null;
  selected: string | null;
  onSelect: (category: string | null) => void;
  /** Filters besides the category are on, and the counts do not follow them. */
  totalsOnly: boolean;
}

const NEXT_KEYS = new Set(['ArrowDown', 'ArrowRight']);
const PREVIOUS_KEYS = new Set(['ArrowUp', 'ArrowLeft']);

/**
 * The feed's category filter with all-time counts: a sidebar on wide screens, a row of chips on
 * phones, before the list in the page as on the screen. The counts are the project's totals (kept
 * per category as events are written); with a search, tag, user, favorites or time filter on, a
 * note says the counts do not follow them.
 *
 * One Tab stop for the whole list (a toolbar with a roving tab index, as the feed's cards have),
 * so a project with many categories does not put them all between the search and the events:
 * arrows, Home and End move among them, Enter or Space chooses.
 */
export function CategoryPanel({ categories, selected, onSelect, totalsOnly }: CategoryPanelProps) {
  const total = categories?.reduce((sum, item) => sum + item.count, 0) ?? null;
  const choices: Array<{ name: string | null; label: string; count: number | null }> = [
    { name: null, label: 'All events', count: total },
    ...(categories ?? []).map((item) => ({ name: item.name, label: item.name, count: item.count })),
  ];
  const toolbar = useRef<HTMLDivElement>(null);
  // The Tab stop: the category last reached with the arrows (until another is chosen), else the chosen one.
  const [focused, setFocused] = useState<{ name: string | null; whileSelected: string | null } | null>(null);
  const stop = focused && focused.whileSelected === selected && choices.some((choice) => choice.name === focused.name) ? focused.name : selected;
  const tabStop = choices.some((choice) => choice.name === stop) ? stop : null;

  const onKeyDown = (key: KeyboardEvent<HTMLDivElement>) => {
    if (key.altKey || key.ctrlKey || key.metaKey) return;
    const buttons = [...(toolbar.current?.querySelectorAll<HTMLButtonElement>('button.category') ?? [])];
    const at = buttons.findIndex((button) => button === document.activeElement);
    let next = -1;
    if (NEXT_KEYS.has(key.key)) next = Math.min(buttons.length - 1, at + 1);
    else if (PREVIOUS_KEYS.has(key.key)) next = Math.max(0, at - 1);
    else if (key.key === 'Home') next = 0;
    else if (key.key === 'End') next = buttons.length - 1;
    if (next < 0 || at < 0) return;
    key.preventDefault();
    buttons[next]?.focus();
  };

  return (
    <aside className="category-panel" aria-label="Categories">
      <h2 className="panel-title" id="category-panel-title">
        Categories
      </h2>
      {totalsOnly && (
        <p className="category-note" data-testid="category-totals-note">
          Counts are all-time totals, without the other filters.
        </p>
      )}
      <div className="category-list" role="toolbar" aria-labelledby="category-panel-title" ref={toolbar} onKeyDown={onKeyDown}>
        {choices.map((choice) => (
          <button
            key={choice.name ?? ''}
            type="button"
            className={selected === choice.name ? 'category active' : 'category'}
            aria-pressed={selected === choice.name}
            tabIndex={choice.name === tabStop ? 0 : -1}
            onFocus={() => setFocused({ name: choice.name, whileSelected: selected })}
            onClick={() => onSelect(choice.name === null || selected !== choice.name ? choice.name : null)}
          >
            <span className="category-name">{choice.label}</span>
            {choice.count !== null && <span className="count">{choice.count.toLocaleString()}</span>}
          </button>
        ))}
      </div>
    </aside>
  );
}

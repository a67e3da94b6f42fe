import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import type { CategoryCount } from '../../types.ts';
import { MiddleEllipsis } from './MiddleEllipsis.tsx';

/** The list shows this many matches at most; typing narrows it. */
const MAX_OPTIONS = 100;

interface Props {
  categories: CategoryCount[];
  /** The chosen category, '' for all of them. */
  value: string;
  onChange: (category: string) => void;
}

/**
 * A searchable category picker (an ARIA combobox): type to filter, arrows to move, Enter to pick,
 * Escape to close. Its width is fixed by the layout, never by the longest category name.
 */
export function CategoryPicker({ categories, value, onChange }: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  const options = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const matches = needle ? categories.filter((item) => item.name.toLowerCase().includes(needle)) : categories;
    // "All categories" first, while nothing narrows the list.
    return [...(needle ? [] : [{ name: '', count: 0 }]), ...matches.slice(0, MAX_OPTIONS)];
  }, [categories, query]);
  const hiddenMatches = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const total = needle ? categories.filter((item) => item.name.toLowerCase().includes(needle)).length : categories.length;
    return Math.max(0, total - MAX_OPTIONS);
  }, [categories, query]);

  const show = () => {
    setOpen(true);
    setActive(0);
  };
  const choose = (name: string) => {
    onChange(name);
    setQuery('');
    setOpen(false);
    input.current?.blur();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return show();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.min(Math.max(current + step, 0), Math.max(options.length - 1, 0)));
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      const option = options[active];
      if (option) choose(option.name);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setQuery('');
    }
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  return (
    <div className="category-picker">
      <label htmlFor={`${id}-input`}>Category</label>
      <div className="category-picker-box">
        <input
          ref={input}
          id={`${id}-input`}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? optionId(active) : undefined}
          placeholder={value || 'All categories'}
          title={value || 'All categories'}
          value={open ? query : value || 'All categories'}
          onFocus={show}
          onClick={() => !open && show()}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {open && (
          <div className="category-picker-popup">
            <ul className="category-picker-list" id={listId} role="listbox" aria-label="Categories">
              {options.map((option, index) => (
                <li
                  key={option.name || '(all)'}
                  id={optionId(index)}
                  role="option"
                  aria-selected={option.name === value}
                  className={index === active ? 'active' : undefined}
                  title={option.name || 'All categories'}
                  // mousedown, not click: the input's blur would close the list before a click lands.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(option.name);
                  }}
                  onMouseEnter={() => setActive(index)}
                >
                  <MiddleEllipsis className="category-picker-name" text={option.name || 'All categories'} />
                  {option.name && <span className="category-picker-count">{option.count.toLocaleString()}</span>}
                </li>
              ))}
            </ul>
            {options.length === 0 && <p className="category-picker-note">No category matches “{query}”</p>}
            {hiddenMatches > 0 && <p className="category-picker-note">{hiddenMatches} more: type to narrow the list</p>}
          </div>
        )}
      </div>
    </div>
  );
}

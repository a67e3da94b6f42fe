import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import type { CategoryCount } from '../../types.ts';

/** The list shows this many suggestions at most; typing narrows it. */
const MAX_OPTIONS = 50;

interface Props {
  /** The field's label; also names its parts for assistive technology. */
  label: string;
  /** The project's categories (GET /api/categories); null while they load. */
  known: CategoryCount[] | null;
  /** The chosen categories; empty means every category. */
  value: string[];
  onChange: (categories: string[]) => void;
  /** Ids of text that describes the field (help, an error). */
  describedBy?: string;
  invalid?: boolean;
}

/**
 * Chooses a destination's categories among the project's known ones (an ARIA combobox: type to
 * narrow, arrows to move, Enter or a click to add), still accepting a new name, typed then Enter,
 * for a category no event has used yet; such a name is flagged, since a typo would silently route
 * nothing. Chosen categories are chips with a remove button; none chosen means every category.
 */
export function CategoriesPicker({ label, known, value, onChange, describedBy, invalid }: Props) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const knownNames = useMemo(() => new Set((known ?? []).map((category) => category.name)), [known]);

  const options = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return (known ?? [])
      .filter((category) => !value.includes(category.name) && (!needle || category.name.toLowerCase().includes(needle)))
      .slice(0, MAX_OPTIONS);
  }, [known, text, value]);

  const add = (name: string) => {
    const trimmed = name.trim();
    if (trimmed && !value.includes(trimmed)) onChange([...value, trimmed]);
    setText('');
    setActive(0);
    // Closed once a category is added, so it covers nothing; typing or an arrow opens it again.
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.min(Math.max(current + step, 0), Math.max(options.length - 1, 0)));
    } else if (event.key === 'Enter' || event.key === ',') {
      // Enter adds the highlighted suggestion while the list is open, else the typed name; it
      // never submits the form around the picker.
      if (event.key === 'Enter' && !open && text.trim() === '') return;
      event.preventDefault();
      const option = open ? options[active] : undefined;
      add(option && (text.trim() === '' || option.name.toLowerCase().includes(text.trim().toLowerCase())) ? option.name : text);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };

  const unknown = known === null ? [] : value.filter((name) => !knownNames.has(name));
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const warningId = `${id}-unknown`;
  const described = [describedBy, unknown.length > 0 ? warningId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="categories-picker" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="categories-picker-label">
        {label}
      </span>
      <div className="categories-picker-anchor">
        <div className="categories-picker-box">
          {value.length === 0 && <span className="muted small categories-picker-all">Every category</span>}
          {value.map((name) => (
            <span key={name} className={knownNames.has(name) || known === null ? 'chip' : 'chip chip-unknown'} data-testid="chosen-category">
              <span className="categories-picker-name">{name}</span>
              <button
                type="button"
                className="categories-picker-remove"
                aria-label={`Remove ${name}`}
                onClick={() => onChange(value.filter((other) => other !== name))}
              >
                ×
              </button>
            </span>
          ))}
          <input
            id={`${id}-input`}
            type="text"
            role="combobox"
            aria-label={`Add a category to ${label.toLowerCase()}`}
            aria-expanded={open && options.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && options[active] ? optionId(active) : undefined}
            aria-describedby={described}
            aria-invalid={invalid || undefined}
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
            placeholder={known && known.length > 0 ? 'Add a category…' : 'Type a category, then Enter'}
            value={text}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onBlur={() => {
              setOpen(false);
              // A name typed and left is kept, as a person expects of a field they filled.
              if (text.trim()) add(text);
            }}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
        </div>
        {/* Right below the box, over what follows, whatever the warning under it says. */}
        {open && options.length > 0 && (
          <ul className="categories-picker-list" id={listId} role="listbox" aria-label={`Known categories for ${label.toLowerCase()}`}>
            {options.map((option, index) => (
              <li
                key={option.name}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'active' : undefined}
                // mousedown, not click: the input's blur would close the list before a click lands.
                onMouseDown={(event) => {
                  event.preventDefault();
                  add(option.name);
                }}
                onMouseEnter={() => setActive(index)}
              >
                <span className="categories-picker-name">{option.name}</span>
                <span className="muted small">{option.count.toLocaleString()}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {unknown.length > 0 && (
        <p id={warningId} className="categories-picker-warning small" role="status" data-testid="unknown-categories">
          No event of this project has the category {unknown.map((name) => `“${name}”`).join(', ')} yet. Check the spelling: only events of the chosen
          categories are delivered.
        </p>
      )}
    </div>
  );
}

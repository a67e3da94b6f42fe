import { type RefObject, useEffect, useRef } from 'react';
import type { EventItem } from '../../types.ts';

interface KeyboardOptions {
  events: EventItem[];
  selectedId: number | null;
  select: (id: number | null) => void;
  open: (event: EventItem) => void;
  favorite: (event: EventItem) => void;
  searchRef: RefObject<HTMLInputElement | null>;
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select') !== null);

function focusRow(id: number) {
  const row = document.querySelector<HTMLElement>(`article[data-event-id="${id}"]`);
  row?.focus({ preventScroll: true });
  row?.scrollIntoView({ block: 'nearest' });
}

/** Whether the key was pressed with focus on an event card or one of its controls. */
const inCard = (target: EventTarget | null) => target instanceof Element && target.closest('article.event[data-event-id]') !== null;

/**
 * The feed's keys: "/" search, j/k (or Down/Up with focus in the list) move the selection, Enter
 * opens it, f favorites it, Escape clears it. Left/Right inside a card are the card's own
 * (EventRow, rovingFocus.ts). Never while typing in a field, with a modifier held, or while a dialog is open
 * (the dialog closes itself on Escape).
 */
export function useFeedKeyboard(options: KeyboardOptions): void {
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const onKey = (key: KeyboardEvent) => {
      if (key.defaultPrevented || key.ctrlKey || key.metaKey || key.altKey || isTyping(key.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const { events, selectedId, select, open, favorite, searchRef } = latest.current;
      const index = events.findIndex((event) => event.id === selectedId);
      const selected = index >= 0 ? events[index] : undefined;
      const move = (step: number) => {
        const next = events[index < 0 ? 0 : Math.min(events.length - 1, Math.max(0, index + step))];
        if (!next) return;
        select(next.id);
        focusRow(next.id);
      };
      switch (key.key) {
        case '/':
          key.preventDefault();
          searchRef.current?.focus();
          searchRef.current?.select();
          return;
        case 'j':
          key.preventDefault();
          move(1);
          return;
        case 'k':
          key.preventDefault();
          move(-1);
          return;
        // Arrows only inside the list: elsewhere they keep scrolling the page.
        case 'ArrowDown':
        case 'ArrowUp':
          if (!inCard(key.target) || key.shiftKey) return;
          key.preventDefault();
          move(key.key === 'ArrowDown' ? 1 : -1);
          return;
        case 'Enter':
          // Enter on a button or link inside a row keeps its own meaning.
          if (!selected || (key.target instanceof Element && key.target.closest('a, button'))) return;
          key.preventDefault();
          open(selected);
          return;
        case 'f':
          if (!selected) return;
          key.preventDefault();
          favorite(selected);
          return;
        case 'Escape':
          if (selected) select(null);
          return;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

import { useEffect, useState } from 'react';
import { Dialog } from './Dialog.tsx';
import './shortcutSheet.css';

const SHORTCUTS: Array<[string, string]> = [
  ['?', 'Show this list of shortcuts'],
  ['/', 'Search the feed'],
  ['Tab', 'Reach the categories once, then the feed once, on the selected event (Tab again leaves the list)'],
  ['↑ / ↓, Home / End', 'Move among the categories; Enter chooses one'],
  ['j / k, ↓ / ↑', 'Next / previous event in the feed'],
  ['← / →', "Move among the focused event's links and buttons"],
  ['Enter', 'Open the selected event'],
  ['f', 'Favorite the selected event'],
  ['Escape', 'Clear the selection, close a dialog'],
];

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select') !== null);

/** `?` anywhere (not while typing, not over a dialog) lists the dashboard's keyboard shortcuts. */
export function ShortcutSheet() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (key: KeyboardEvent) => {
      if (key.key !== '?' || key.ctrlKey || key.metaKey || key.altKey || isTyping(key.target)) return;
      if (document.querySelector('dialog[open]')) return;
      key.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setOpen(false)}>
      <dl className="shortcut-sheet">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} className="shortcut">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

// The dashboard's theme: the system's (the default), light or dark, chosen on "Your account" and
// kept in this browser. The choice is the `data-theme` attribute of <html>; styles.css reads it
// before the system's preference, so a choice wins over the operating system.
import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'eventlog.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const CHANGED = 'eventlog-theme-changed';

export function savedTheme(): ThemeChoice {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

/** Puts the choice on <html>; called once at start and on every change. */
export function applyTheme(choice: ThemeChoice = savedTheme()): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice lasts until the page is closed.
  }
  applyTheme(choice);
  window.dispatchEvent(new Event(CHANGED));
}

/** Whether the page shows dark now: the choice, else the system's preference; follows both. */
export function useDarkTheme(): boolean {
  const read = () => {
    const choice = document.documentElement.getAttribute('data-theme');
    return choice ? choice === 'dark' : window.matchMedia(DARK_QUERY).matches;
  };
  const [dark, setDark] = useState(read);
  useEffect(() => {
    const list = window.matchMedia(DARK_QUERY);
    const onChange = () => setDark(read());
    onChange();
    list.addEventListener('change', onChange);
    window.addEventListener(CHANGED, onChange);
    return () => {
      list.removeEventListener('change', onChange);
      window.removeEventListener(CHANGED, onChange);
    };
  }, []);
  return dark;
}

import { useEffect, useState } from 'react';

export interface SettingsSection {
  /** The section's URL hash, without '#'. */
  id: string;
  label: string;
}

const hashId = () => decodeURIComponent(window.location.hash.slice(1));

/**
 * The section the address names (`#hooks`...): scrolled to and focused when the page opens with
 * it (again once the sections have had a moment to load above it) and whenever it changes.
 */
export function useSectionFromHash(sections: SettingsSection[]): string | null {
  const [current, setCurrent] = useState<string | null>(hashId);
  const known = sections.map((section) => section.id).join(' ');
  useEffect(() => {
    const ids = known.split(' ');
    const go = (focus: boolean) => {
      const id = hashId();
      setCurrent(ids.includes(id) ? id : null);
      const target = ids.includes(id) ? document.getElementById(id) : null;
      if (!target) return;
      if (focus) target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'start' });
    };
    go(true);
    // Sections above the target load their records and grow: land on it again once they have.
    const settle = setTimeout(() => go(false), 400);
    const onHash = () => go(true);
    window.addEventListener('hashchange', onHash);
    return () => {
      clearTimeout(settle);
      window.removeEventListener('hashchange', onHash);
    };
  }, [known]);
  return current;
}

/**
 * Links to the page's sections: a column that stays in view beside them on a wide screen, one
 * row of compact links above them on a phone. Plain links, so Tab, Enter, Back and a shared
 * address all work as everywhere else.
 */
export function SettingsNav({ sections, current }: { sections: SettingsSection[]; current: string | null }) {
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ul>
        {sections.map((section) => (
          <li key={section.id}>
            <a href={`#${section.id}`} aria-current={section.id === current ? 'location' : undefined}>
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

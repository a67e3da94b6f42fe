import { useState } from 'react';
import { type ThemeChoice as Choice, chooseTheme, savedTheme } from '../../theme.ts';

const CHOICES: ReadonlyArray<[Choice, string]> = [
  ['system', 'System'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** The theme of this browser's dashboard: the system's, light or dark; applied at once. */
export function ThemeChoice() {
  const [theme, setTheme] = useState<Choice>(savedTheme);
  return (
    <fieldset className="field segmented" data-testid="theme-choice">
      <legend>Theme</legend>
      <div className="radio-row">
        {CHOICES.map(([value, label]) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="theme"
              value={value}
              checked={theme === value}
              onChange={() => {
                setTheme(value);
                chooseTheme(value);
              }}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

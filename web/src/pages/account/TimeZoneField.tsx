import { useId, useMemo } from 'react';

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA zone the browser knows: the browser's own first, then UTC, then the rest A to Z. */
function zones(): string[] {
  const known = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([browserZone(), 'UTC', ...[...known].sort()])];
}

export const isKnownZone = (zone: string) => zones().includes(zone);

/** The zones a select offers: the current one (kept even if unknown) with every known zone. */
export const zoneChoices = (current: string): string[] => [...new Set([current, ...zones()])];

/**
 * A time zone typed or picked from suggestions that narrow as one types ("berl" → Europe/Berlin),
 * the browser's zone first, instead of a 420-row list.
 */
export function TimeZoneField({ value, onChange, error }: { value: string; onChange: (zone: string) => void; error?: string | null }) {
  const id = useId();
  const options = useMemo(zones, []);
  return (
    <label className="field">
      <span>Time zone</span>
      <input
        name="timeZone"
        list={`${id}-zones`}
        value={value}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={`${id}-zones`}>
        {options.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : (
        <small id={`${id}-hint`} className="muted">
          Type a city or region; this browser is in {browserZone()}.
        </small>
      )}
    </label>
  );
}

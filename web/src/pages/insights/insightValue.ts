// How an insight's value reads on its card. Pure, so it is unit-tested without a browser.

/** Plain decimal text, as counters hold it; other values (hex, words, "") are shown as written. */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
/** Longer than this, a formatted number would not fit a card at a readable size: it goes compact. */
const MAX_FULL_LENGTH = 16;

interface DisplayValue {
  kind: 'number' | 'text' | 'empty';
  /** What the card shows. */
  text: string;
  /** The full value in the reader's locale, for the tooltip; differs from `text` when compacted. */
  full: string;
  /** A size step for long numbers, so they shrink instead of breaking: 0 (short) to 2 (long). */
  size: 0 | 1 | 2;
}

/**
 * A counter's number in the reader's locale (1234.5 → "1,234.5" or "1.234,5"); a number too long
 * for a card in compact form ("12 quadrillion"), with the full figure kept for the tooltip;
 * anything else as written.
 */
export function displayValue(value: string, locale?: string): DisplayValue {
  if (value.trim() === '') return { kind: 'empty', text: value, full: value, size: 0 };
  if (!DECIMAL.test(value)) return { kind: 'text', text: value, full: value, size: 0 };
  const number = Number(value);
  if (!Number.isFinite(number)) return { kind: 'text', text: value, full: value, size: 0 };
  // The text itself is formatted, not the double, so a 25-digit counter keeps every digit
  // (Intl.NumberFormat takes decimal strings; the server's TypeScript lib does not know it yet).
  const full = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(value.trim() as unknown as number);
  if (full.length <= MAX_FULL_LENGTH) return { kind: 'number', text: full, full, size: full.length <= 9 ? 0 : full.length <= 12 ? 1 : 2 };
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay: 'short', maximumFractionDigits: 2 }).format(number);
  // Compact notation stops at trillions; beyond, scientific notation stays short.
  const text = compact.length <= MAX_FULL_LENGTH ? compact : new Intl.NumberFormat(locale, { notation: 'scientific', maximumFractionDigits: 3 }).format(number);
  return { kind: 'number', text, full, size: text.length <= 9 ? 0 : text.length <= 12 ? 1 : 2 };
}

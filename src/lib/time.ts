/**
 * Timestamps travel as integer microseconds since the epoch (a decimal string from SQL), because
 * a JS Date would drop the microseconds that cursors need.
 */
export function microsToIso(micros: string | bigint): string {
  const value = BigInt(micros);
  const millis = value / 1000n - (value < 0n && value % 1000n !== 0n ? 1n : 0n);
  return new Date(Number(millis)).toISOString();
}

/** ISO 8601 with six fractional digits, e.g. 2026-11-22T19:32:05.123456Z. */
export function microsToIsoMicro(micros: string | bigint): string {
  const value = BigInt(micros);
  const iso = microsToIso(value);
  const fraction = ((value % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${iso.slice(0, 19)}.${fraction.toString().padStart(6, '0')}Z`;
}

const ISO_MICRO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;

/** Inverse of microsToIsoMicro; null when the text is not such a timestamp. */
export function isoMicroToMicros(text: string): bigint | null {
  const match = ISO_MICRO.exec(text);
  if (!match) return null;
  const seconds = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(seconds)) return null;
  return BigInt(seconds) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** Unix seconds (fractional allowed) to integer microseconds. */
export function unixSecondsToMicros(seconds: number): bigint {
  const whole = Math.floor(seconds);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((seconds - whole) * 1_000_000));
}

import { InvalidInput } from '../../lib/errors.ts';

export type DigestFrequency = 'daily' | 'weekly' | 'off';

export interface DigestSettings {
  frequency: DigestFrequency;
  /** 0-23, in timeZone. */
  hour: number;
  /** An IANA name. */
  timeZone: string;
}

const DAY_MS = 24 * 3600_000;

/** The IANA zone as Intl names it, or 400. */
export function checkTimeZone(raw: string): string {
  const zone = raw.trim();
  try {
    if (!zone) throw new RangeError('empty');
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidInput(`timeZone must be an IANA time zone name such as "Europe/Paris", got ${JSON.stringify(raw)}`);
  }
}

/** The wall-clock parts of an instant in a zone. */
function partsIn(zone: string, at: number): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '0';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { year: Number(get('year')), month: Number(get('month')), day: Number(get('day')), hour: Number(get('hour')), minute: Number(get('minute')), weekday };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(zone: string, at: number): number {
  const p = partsIn(zone, at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(at / 60_000) * 60_000;
}

/**
 * The instant a wall-clock time in a zone names. A time skipped by a DST change moves forward by
 * the gap; a repeated one takes its first occurrence.
 */
function zonedInstant(zone: string, year: number, month: number, day: number, hour: number): number {
  const guess = Date.UTC(year, month - 1, day, hour);
  const first = guess - offsetAt(zone, guess);
  const second = guess - offsetAt(zone, first);
  const exact = [first, second].filter((at) => partsIn(zone, at).hour === hour);
  return exact.length > 0 ? Math.min(...exact) : Math.max(first, second);
}

/**
 * The next moment a digest is owed after `after`: `hour`:00 in the zone, every day (daily) or on
 * Mondays (weekly); null when off.
 */
export function nextDigestAt(settings: DigestSettings, after: Date): Date | null {
  if (settings.frequency === 'off') return null;
  const start = partsIn(settings.timeZone, after.getTime());
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const weekday = date.getUTCDay();
    if (settings.frequency === 'weekly' && weekday !== 1) continue;
    const at = zonedInstant(settings.timeZone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), settings.hour);
    if (at > after.getTime()) return new Date(at);
  }
  return null;
}

/** How long a digest's period is: one day, or seven. A preview of an "off" digest covers a day. */
export function periodMs(frequency: DigestFrequency): number {
  return frequency === 'weekly' ? 7 * DAY_MS : DAY_MS;
}

import { InvalidInput } from '../../lib/errors.ts';
import { instantOf, wallClock } from '../../lib/zonedTime.ts';

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

/**
 * The next moment a digest is owed after `after`: `hour`:00 in the zone, every day (daily) or on
 * Mondays (weekly); null when off.
 */
export function nextDigestAt(settings: DigestSettings, after: Date): Date | null {
  if (settings.frequency === 'off') return null;
  const today = Math.floor(wallClock(settings.timeZone, after.getTime()) / DAY_MS) * DAY_MS;
  for (let offset = 0; offset <= 8; offset++) {
    const day = today + offset * DAY_MS;
    if (settings.frequency === 'weekly' && new Date(day).getUTCDay() !== 1) continue;
    const at = instantOf(settings.timeZone, day + settings.hour * 3600_000);
    if (at > after.getTime()) return new Date(at);
  }
  return null;
}

/** How long a digest's period is: one day, or seven. A preview of an "off" digest covers a day. */
export function periodMs(frequency: DigestFrequency): number {
  return frequency === 'weekly' ? 7 * DAY_MS : DAY_MS;
}

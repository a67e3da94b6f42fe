// Wall-clock time in an IANA zone, from the zone's own rules through Intl (never a fixed offset):
// the digests' schedule and the members' quiet hours both need it.

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall clock of an instant in a zone, as if it were UTC (milliseconds, whole minutes). */
export function wallClock(zone: string, at: number): number {
  const parts = formatter(zone).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
}

/**
 * The instant a wall-clock time (given as if UTC) names in a zone, from the zone's own offsets. A
 * time a DST change skips moves forward by the gap; a repeated one takes its first occurrence.
 */
export function instantOf(zone: string, wall: number): number {
  const offsetAt = (at: number) => wallClock(zone, at) - Math.floor(at / 60_000) * 60_000;
  // The offsets a day before and a day after: a DST change between them is the only one near.
  const candidates = [wall - offsetAt(wall - DAY_MS), wall - offsetAt(wall + DAY_MS)];
  const exact = candidates.filter((at) => wallClock(zone, at) === wall);
  return exact.length > 0 ? Math.min(...exact) : Math.max(...candidates);
}

const DAY_MS = 86_400_000;

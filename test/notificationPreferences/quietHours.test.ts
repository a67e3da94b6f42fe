// npm test runs this file in one pass only: pure functions, no database (decision 230).
// Quiet windows computed in their zone with Intl (never a fixed offset): across midnight, on the
// listed days only, and on the days a DST change makes 23 or 25 hours long.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHolding } from '../../src/features/notificationPreferences/quietHours.ts';

const quiet = (start: string, end: string, days: number[], timeZone = 'Europe/Paris') => ({ quietHours: { timeZone, start, end, days }, snoozedUntil: null });
const at = (iso: string) => new Date(iso);

describe('quiet windows', () => {
  it('a window across midnight belongs to the day it starts on', () => {
    const friday = quiet('22:00', '07:00', [5]);
    assert.equal(isHolding(friday, at('2026-06-05T19:59:00Z')), false, 'Friday 21:59');
    assert.equal(isHolding(friday, at('2026-06-05T20:00:00Z')), true, 'Friday 22:00');
    assert.equal(isHolding(friday, at('2026-06-06T04:59:00Z')), true, 'Saturday 06:59');
    assert.equal(isHolding(friday, at('2026-06-06T05:00:00Z')), false, 'Saturday 07:00');
    assert.equal(isHolding(friday, at('2026-06-06T21:00:00Z')), false, 'Saturday 23:00 (Saturday not listed)');
    assert.equal(isHolding(friday, at('2026-06-04T23:00:00Z')), false, 'Friday 01:00 belongs to Thursday');
  });

  it('a same-day window, and start equal to end (a whole day)', () => {
    const lunch = quiet('12:00', '13:30', [1, 2, 3, 4, 5], 'UTC');
    assert.equal(isHolding(lunch, at('2026-06-01T12:00:00Z')), true);
    assert.equal(isHolding(lunch, at('2026-06-01T13:30:00Z')), false);
    assert.equal(isHolding(lunch, at('2026-06-06T12:30:00Z')), false, 'Saturday');
    const sunday = quiet('00:00', '00:00', [7], 'UTC');
    assert.equal(isHolding(sunday, at('2026-06-07T23:59:00Z')), true);
    assert.equal(isHolding(sunday, at('2026-06-08T00:00:00Z')), false);
  });

  it('spring forward: Sunday 29 March 2026 in Paris, 01:00 CET to 06:00 CEST is four real hours', () => {
    const sunday = quiet('01:00', '06:00', [7]);
    assert.equal(isHolding(sunday, at('2026-03-28T23:59:00Z')), false);
    assert.equal(isHolding(sunday, at('2026-03-29T00:00:00Z')), true, '01:00 CET');
    assert.equal(isHolding(sunday, at('2026-03-29T03:59:00Z')), true, '05:59 CEST');
    assert.equal(isHolding(sunday, at('2026-03-29T04:00:00Z')), false, '06:00 CEST');
    // A start the change skips (02:30) opens at 03:30 CEST, the gap later.
    const skipped = quiet('02:30', '05:00', [7]);
    assert.equal(isHolding(skipped, at('2026-03-29T01:29:00Z')), false);
    assert.equal(isHolding(skipped, at('2026-03-29T01:30:00Z')), true);
  });

  it('fall back: Sunday 25 October 2026 in Paris, 01:00 CEST to 06:00 CET is six real hours', () => {
    const sunday = quiet('01:00', '06:00', [7]);
    assert.equal(isHolding(sunday, at('2026-10-24T22:59:00Z')), false);
    assert.equal(isHolding(sunday, at('2026-10-24T23:00:00Z')), true, '01:00 CEST');
    assert.equal(isHolding(sunday, at('2026-10-25T04:59:00Z')), true, '05:59 CET');
    assert.equal(isHolding(sunday, at('2026-10-25T05:00:00Z')), false, '06:00 CET');
  });

  it('a snooze holds until its moment', () => {
    const now = at('2026-06-01T12:00:00Z');
    assert.equal(isHolding({ quietHours: null, snoozedUntil: new Date(now.getTime() + 1000) }, now), true);
    assert.equal(isHolding({ quietHours: null, snoozedUntil: now }, now), false);
    assert.equal(isHolding({ quietHours: null, snoozedUntil: null }, now), false);
  });
});

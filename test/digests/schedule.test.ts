// npm test runs this file in one pass only: pure functions, no database (decision 230).
// When a digest is owed (src/features/digests/schedule.ts): hour:00 in the member's zone, from the
// zone's own rules (src/lib/zonedTime.ts), across DST changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextDigestAt } from '../../src/features/digests/schedule.ts';

const next = (frequency: 'daily' | 'weekly' | 'off', hour: number, timeZone: string, after: string) =>
  nextDigestAt({ frequency, hour, timeZone }, new Date(after))?.toISOString() ?? null;

describe('the next digest', () => {
  it('is today at the hour when it is still ahead, else tomorrow', () => {
    assert.equal(next('daily', 9, 'Europe/Paris', '2026-06-10T06:00:00Z'), '2026-06-10T07:00:00.000Z');
    assert.equal(next('daily', 9, 'Europe/Paris', '2026-06-10T07:00:00Z'), '2026-06-11T07:00:00.000Z');
    assert.equal(next('daily', 23, 'America/New_York', '2026-01-15T12:00:00Z'), '2026-01-16T04:00:00.000Z');
  });

  it('is on the next Monday for weekly, in the zone, not in UTC', () => {
    // Sunday 23:30 UTC is Monday 08:30 in Tokyo: the digest at 09:00 is half an hour ahead.
    assert.equal(next('weekly', 9, 'Asia/Tokyo', '2026-06-07T23:30:00Z'), '2026-06-08T00:00:00.000Z');
    assert.equal(next('weekly', 7, 'Europe/Paris', '2026-06-10T12:00:00Z'), '2026-06-15T05:00:00.000Z');
  });

  it('moves an hour that a DST change skips forward by the gap, and takes the first of a repeated one', () => {
    // Paris skips 02:00-03:00 on 2026-03-29 and repeats 02:00-03:00 on 2026-10-25.
    assert.equal(next('daily', 2, 'Europe/Paris', '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
    assert.equal(next('daily', 2, 'Europe/Paris', '2026-10-24T12:00:00Z'), '2026-10-25T00:00:00.000Z');
  });

  it('is never when off', () => {
    assert.equal(next('off', 9, 'UTC', '2026-06-10T06:00:00Z'), null);
  });
});

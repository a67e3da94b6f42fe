import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { countUserDays } from './queries.ts';
import { getUser } from './getUser.ts';
import type { UserActivity } from './schemas.ts';

const ACTIVITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** Today in `timeZone` as YYYY-MM-DD (en-CA writes dates that way). */
function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The calendar day `offset` days after `day` (both YYYY-MM-DD). */
function addDays(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A user's events per day over the last 30 days, today included, oldest first, every day
 * present (0 when none). Days are those of the installation's time zone, like the charts'.
 * The window's first day is computed here, not in SQL, so every store reads the same days.
 */
export async function userActivity({ ctx, input }: VerbArgs<{ project?: string; userId: string }>): Promise<Static<typeof UserActivity>> {
  // The same checks as the profile: a missing project or an unknown user is refused alike.
  await getUser({ ctx, input });
  const today = todayIn(ctx.services.config.timeZone, new Date());
  const since = addDays(today, 1 - ACTIVITY_DAYS);
  const counted = await countUserDays(ctx.services.sql, { organizationId: ctx.organizationId, projectId: input.project!, userId: input.userId, since });
  const byDay = new Map(counted.map((row) => [row.day, row.count]));
  const days = Array.from({ length: ACTIVITY_DAYS }, (_, index) => addDays(since, index));
  return { days: days.map((day) => ({ day, count: byDay.get(day) ?? 0 })) };
}

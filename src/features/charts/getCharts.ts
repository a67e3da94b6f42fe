import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { selectDayCounts } from './queries.ts';
import type { Charts, ChartsQuery } from './schemas.ts';

const DEFAULT_DAYS = 30;
const MAX_DAYS = 36_500;

/** `days`: plain digits from 1 to 36500; absent means 30. Anything else is a 400 (spec). */
function parseDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_DAYS;
  const days = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= MAX_DAYS)) throw new InvalidInput(`days must be an integer from 1 to ${MAX_DAYS}`);
  return days;
}

/**
 * GET /api/charts: `{ [category]: [{day, count}] }` over the last `days` days including today,
 * in the server's time zone. Only days with events appear, oldest first; a category without
 * events in the window is left out (README, "Interpretations of the spec").
 */
export async function getCharts({ ctx, input }: VerbArgs<Static<typeof ChartsQuery>>): Promise<Static<typeof Charts>> {
  // Unlike the feed, the spec gives charts a 400 for a missing project.
  if (!input.project) throw new InvalidInput('project is required');
  const days = parseDays(input.days);
  await requireProject(ctx, input.project);
  const rows = await selectDayCounts(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    days,
    category: input.category || undefined,
  });
  // A Map, then fromEntries: a category named "__proto__" must stay an ordinary key.
  const byCategory = new Map<string, Array<{ day: string; count: number }>>();
  for (const row of rows) {
    let series = byCategory.get(row.category);
    if (!series) byCategory.set(row.category, (series = []));
    series.push({ day: row.day, count: row.count });
  }
  // Categories in name order, so the document does not depend on which one was busiest first.
  return Object.fromEntries([...byCategory].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

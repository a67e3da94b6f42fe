import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { parseFeedFilters } from '../events/feedFilters.ts';
import { requireGroup } from '../groups/requireGroup.ts';
import { requireProject } from '../projects/requireProject.ts';
import { NO_TAG, seriesDocument, tagValueKey } from './breakdown.ts';
import { scanDaySeries, selectCategorySeries } from './queries.ts';
import { tagRollupReady } from './tagRollupReady.ts';
import { selectTagSeries } from './tagRollupQueries.ts';
import type { ChartsQuery } from './schemas.ts';

const DEFAULT_DAYS = 30;
const MAX_DAYS = 36_500;

/** `days`: plain digits from 1 to 36500; absent means 30. Anything else is a 400 (spec). */
function parseDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_DAYS;
  const days = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= MAX_DAYS)) throw new InvalidInput(`days must be an integer from 1 to ${MAX_DAYS}`);
  return days;
}

/** `groupBy`: `tag:<key>` with a non-empty key; absent means by category. */
function parseGroupBy(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!raw.startsWith('tag:') || raw.length === 4) throw new InvalidInput('groupBy must be tag:<key> with a non-empty key');
  return raw.slice(4);
}

/**
 * GET /api/charts: `{ [category]: [{day, count}] }` (or keyed by a tag's values) over the last `days` days including today,
 * in the server's time zone, as JSON text ready to send. Only days with events appear, oldest
 * first; a category without events in the window is left out (README, "Interpretations of the
 * spec"). `mayRegisterRollups`: whether the caller may change the organization (not a read-only
 * key), and so register a tag key for the rollup.
 */
export async function getCharts({ ctx, input, mayRegisterRollups }: VerbArgs<Static<typeof ChartsQuery>> & { mayRegisterRollups: boolean }): Promise<string> {
  // Unlike the feed, the spec gives charts a 400 for a missing project.
  if (!input.project) throw new InvalidInput('project is required');
  const days = parseDays(input.days);
  const filters = parseFeedFilters({ tag: input.tag, group: input.group });
  const tags = filters.tags ?? [];
  const groupId = filters.groupId;
  const tagKey = parseGroupBy(input.groupBy);
  await requireProject(ctx, input.project);
  if (groupId !== undefined) await requireGroup(ctx, input.project, groupId);
  const category = input.category || undefined;
  if (
    tagKey !== undefined &&
    tags.length === 0 &&
    groupId === undefined &&
    (await tagRollupReady(ctx, input.project, tagKey, { mayRegister: mayRegisterRollups }))
  ) {
    const counted = await selectTagSeries(ctx.services.sql, { organizationId: ctx.organizationId, projectId: input.project, tagKey, days, category });
    return seriesDocument(counted.map((row) => ({ key: tagValueKey(row.type, row.text), day: row.day, count: row.count })));
  }
  if (tags.length > 0 || tagKey !== undefined || groupId !== undefined) {
    // Tag and group filters, and breakdowns whose key is not rolled up (yet), read the range's events.
    const scanned = await scanDaySeries(ctx.services.sql, {
      organizationId: ctx.organizationId,
      projectId: input.project,
      days,
      category,
      tags,
      tagKey,
      groupId,
    });
    return seriesDocument(
      scanned.map((row) => ({ key: tagKey === undefined ? (row.category ?? NO_TAG) : tagValueKey(row.type, row.text), day: row.day, count: row.count })),
    );
  }
  const rows = await selectCategorySeries(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    days,
    category,
  });
  // Categories in name order (UTF-16, as JavaScript compares), so the document does not depend
  // on which one was busiest first.
  rows.sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  return `{${rows.map((row) => `${JSON.stringify(row.category)}:${row.series}`).join(',')}}`;
}

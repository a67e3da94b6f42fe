import type { Static } from '@sinclair/typebox';
import { type VerbArgs, maySee } from '../../context.ts';
import { firingAlerts } from '../alerts/firingAlerts.ts';
import { selectDailyActivity, selectLastEventTimes } from './queries.ts';
import type { ProjectActivity } from './schemas.ts';

const SERIES_DAYS = 7;

/**
 * GET /api/projects/activity: per project, events today and over the last 7 days, the 7-day
 * series of a sparkline and the last event's time; from the per-day rollup and one index step
 * per project, never a scan of the events; and its firing alerts. A key limited to some
 * projects sees those only.
 */
export async function projectActivity({ ctx }: VerbArgs<void>): Promise<Array<Static<typeof ProjectActivity>>> {
  const [days, lastEvents, firing] = await Promise.all([
    selectDailyActivity(ctx.services.sql, ctx.organizationId, SERIES_DAYS),
    selectLastEventTimes(ctx.services.sql, ctx.organizationId),
    firingAlerts(ctx),
  ]);
  const byProject = new Map<string, Static<typeof ProjectActivity>>();
  for (const { projectId, lastEventAt } of lastEvents) {
    if (!maySee(ctx, projectId)) continue;
    const firingAlerts = firing.filter((alert) => alert.projectId === projectId).map(({ id, name }) => ({ id, name }));
    byProject.set(projectId, { projectId, eventsToday: 0, eventsThisWeek: 0, series: [], lastEventAt: lastEventAt?.toISOString() ?? null, firingAlerts });
  }
  for (const row of days) {
    const project = byProject.get(row.projectId);
    if (!project) continue; // deleted between the two reads
    project.series.push({ day: row.day, count: row.count });
    project.eventsThisWeek += row.count;
  }
  for (const project of byProject.values()) project.eventsToday = project.series.at(-1)?.count ?? 0;
  return [...byProject.values()].filter((project) => project.series.length === SERIES_DAYS);
}

import type { Db } from '../../db/client.ts';
import { alertTransitionsInPeriod, countCategories, latestNotifyTitles, listInsightValues, listLiveProjects } from './queries.ts';

/** Notify titles listed per project (extensions.md, "Email": the latest 20). */
const LATEST_NOTIFY_TITLES = 20;

/** One change of an alert's state in the period. */
interface AlertTransition {
  alertId: string;
  alertName: string;
  state: 'firing' | 'ok';
  at: Date;
  count: number | null;
}

export interface ProjectDigest {
  id: string;
  name: string;
  categories: { category: string; current: number; previous: number }[];
  notifyCount: number;
  latestNotify: { title: string; at: Date }[];
  alertTransitions: AlertTransition[];
  insights: { title: string; value: string; icon: string | null }[];
}

export interface Digest {
  from: Date;
  to: Date;
  projects: ProjectDigest[];
}

/** An insight's stored value (JSON text) as a person reads it. */
function insightText(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
  } catch {
    return value;
  }
}

/**
 * What a digest covering [from, to) says of each live project of the organization: events per
 * category against the period of the same length before, notify events with the latest titles,
 * alert transitions and the insight cards' values.
 */
export async function buildDigest(sql: Db, organizationId: string, from: Date, to: Date): Promise<Digest> {
  const projects = await listLiveProjects(sql, organizationId);
  if (projects.length === 0) return { from, to, projects: [] };
  const projectIds = projects.map((project) => project.id);
  const previousFrom = new Date(from.getTime() - (to.getTime() - from.getTime()));
  const [counts, titles, insights, transitions] = await Promise.all([
    countCategories(sql, { organizationId, projectIds, previousFrom, from, to }),
    latestNotifyTitles(sql, { organizationId, projectIds, from, to, limit: LATEST_NOTIFY_TITLES }),
    listInsightValues(sql, organizationId),
    alertTransitionsInPeriod(sql, { organizationId, projectIds, from, to }),
  ]);
  const result: ProjectDigest[] = [];
  for (const project of projects) {
    const ofProject = counts.filter((row) => row.projectId === project.id);
    result.push({
      id: project.id,
      name: project.name,
      categories: ofProject
        .filter((row) => row.current > 0 || row.previous > 0)
        .map(({ category, current, previous }) => ({ category, current, previous }))
        .sort((a, b) => b.current - a.current || a.category.localeCompare(b.category)),
      notifyCount: ofProject.reduce((sum, row) => sum + row.notify, 0),
      latestNotify: titles.filter((row) => row.projectId === project.id).map((row) => ({ title: row.title, at: row.createdAt })),
      alertTransitions: transitions
        .filter((row) => row.projectId === project.id)
        .map(({ alertId, alertName, state, at, count }) => ({ alertId, alertName, state, at, count })),
      insights: insights.filter((row) => row.projectId === project.id).map((row) => ({ title: row.title, value: insightText(row.value), icon: row.icon })),
    });
  }
  return { from, to, projects: result };
}

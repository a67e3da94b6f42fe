import type { Db } from '../../db/client.ts';
import { drawInsightIds } from '../events/idCounters.ts';
import { insertInsightRows, isLiveProject } from './queries.ts';
import type { InsightDraft } from './validateInsightInput.ts';

/**
 * An import's insights, written in the import's transaction into a project the organization owns:
 * one id per draft, drawn together, titles distinct within the call. The ids written (none when
 * the project is not the organization's), or `exhausted` when the organization's insight ids do
 * not suffice (then nothing is written).
 */
export async function importInsights(tx: Db, organizationId: string, projectId: string, drafts: InsightDraft[]): Promise<number[] | 'exhausted'> {
  if (drafts.length === 0 || !(await isLiveProject(tx, organizationId, projectId))) return [];
  const lastId = await drawInsightIds(tx, organizationId, drafts.length);
  if (lastId === 'exhausted') return 'exhausted';
  return insertInsightRows(tx, organizationId, projectId, lastId - drafts.length + 1, drafts);
}

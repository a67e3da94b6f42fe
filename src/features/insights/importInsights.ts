import type { Db } from '../../db/client.ts';
import { insertInsights } from './queries.ts';
import type { InsightDraft } from './validateInsightInput.ts';

/**
 * An import's insights, written in the import's transaction into a project the organization owns:
 * one id per draft, titles distinct within the call. The ids written, or `exhausted` when the
 * organization's insight ids do not suffice (then nothing is written).
 */
export function importInsights(tx: Db, organizationId: string, projectId: string, drafts: InsightDraft[]): Promise<number[] | 'exhausted'> {
  return insertInsights(tx, organizationId, projectId, drafts);
}

import { type Db, withTransaction } from '../../db/client.ts';
import { drawInsightIds } from '../events/idCounters.ts';
import { incrementInsight, insertIncremented, insertInsight, isLiveProject, updateInsight } from './queries.ts';
import type { InsightDraft } from './validateInsightInput.ts';

// Writing a card by its (project, title): an update takes no id; only a new insight draws one
// from the organization's `insight` counter (events/idCounters.ts), in the same transaction.
// Each statement names the organization, so a distributed engine routes it to the organization's
// shard (an INSERT in a CTE is never routed there: docs/scaling.md).

/** What an upsert did; `exhausted` when a new insight needed an id and the organization has none left. */
type UpsertOutcome = { id: number; projectId: string; outcome: 'updated' | 'inserted' } | { outcome: 'exhausted' };

/** What an increment did: the counter's new text, or `exhausted` when a new insight found no id left. */
type IncrementOutcome = { id: number; projectId: string; value: string } | { outcome: 'exhausted' };

/** A new insight's id; undefined when the project is not the organization's, `exhausted` when no id is left. */
async function drawInsightId(tx: Db, organizationId: string, projectId: string): Promise<number | 'exhausted' | undefined> {
  if (!(await isLiveProject(tx, organizationId, projectId))) return undefined;
  return drawInsightIds(tx, organizationId, 1);
}

/**
 * Creates or updates the insight (project, title) of one of the organization's projects; the
 * icon changes only when supplied. Undefined when the project is not theirs.
 */
export function upsertInsightRow(sql: Db, organizationId: string, projectId: string, draft: InsightDraft): Promise<UpsertOutcome | undefined> {
  return withTransaction(sql, async (tx) => {
    const updated = await updateInsight(tx, organizationId, projectId, draft);
    if (updated) return { ...updated, outcome: 'updated' as const };
    const id = await drawInsightId(tx, organizationId, projectId);
    if (id === undefined || id === 'exhausted') return id && { outcome: id };
    return { ...(await insertInsight(tx, organizationId, projectId, id, draft)), outcome: 'inserted' as const };
  });
}

/**
 * Adds `increment` to the insight (project, title), creating it from 0. Undefined when the project
 * is not the organization's. Throws NOT_A_NUMBER (queries.ts; nothing written).
 */
export function incrementInsightRow(
  sql: Db,
  organizationId: string,
  projectId: string,
  draft: { title: string; increment: number; icon: string | null | undefined },
): Promise<IncrementOutcome | undefined> {
  return withTransaction(sql, async (tx) => {
    const updated = await incrementInsight(tx, organizationId, projectId, draft);
    if (updated) return updated;
    const id = await drawInsightId(tx, organizationId, projectId);
    if (id === undefined || id === 'exhausted') return id && { outcome: id };
    return insertIncremented(tx, organizationId, projectId, id, draft);
  });
}

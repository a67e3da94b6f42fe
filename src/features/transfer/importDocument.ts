import type { Static } from '@sinclair/typebox';
import type { Ctx, VerbArgs } from '../../context.ts';
import { type TransactionSql, withTransaction, withoutStatementTimeout } from '../../db/client.ts';
import { IdSpaceExhausted } from '../../lib/errors.ts';
import { ID_WARNING_THRESHOLD } from '../../lib/idSpace.ts';
import { countEventsCreated } from '../../metrics.ts';
import { insertImportedAlerts } from '../alerts/transferAlerts.ts';
import { insertInsights } from '../insights/queries.ts';
import { importedRows } from './copyText.ts';
import { IMPORT_CHUNK, type ProjectPlan } from './planImport.ts';
import {
  insertCategories,
  insertImportedDailyCounts,
  insertImportedUsers,
  insertProjects,
  reserveEventIds,
  sendImportedEvents,
} from './queries.ts';
import type { ImportResult } from './schemas.ts';
import { recordAudit } from '../audit/recordAudit.ts';

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += IMPORT_CHUNK) out.push(rows.slice(i, i + IMPORT_CHUNK));
  return out;
}

interface Written {
  projects: string[];
  events: number;
  insights: number;
}

/**
 * The plan's chunks of events, one COPY each, under ids reserved beforehand from `firstId` on.
 * The next chunk's input is made while the database takes the current one; each chunk is let go
 * once it is made.
 */
async function writeEvents(tx: TransactionSql, organizationId: string, plan: ProjectPlan, firstId: number): Promise<number> {
  let nextId = firstId;
  const prepare = () => {
    const chunk = plan.eventChunks.shift();
    if (!chunk) return undefined;
    const rows = importedRows({ organizationId, projectId: plan.id, firstId: nextId, lines: chunk.toString('utf8') });
    nextId += rows.count;
    return rows;
  };
  let written = 0;
  for (let rows = prepare(); rows; ) {
    const { done } = await sendImportedEvents(tx, rows);
    rows = prepare();
    written += await done;
  }
  return written;
}

/**
 * One project of the file: its ids in one step (the whole import rolls back when the
 * organization is out of them), its events, then the counts, users and categories they add up to.
 * Imported history is not news: notify events are stored as such but not fanned out, and the
 * monthly usage is not charged.
 */
async function writeProject(ctx: Ctx, tx: TransactionSql, plan: ProjectPlan, written: Written): Promise<void> {
  const { organizationId } = ctx;
  if (plan.eventCount > 0) {
    const firstId = await reserveEventIds(tx, organizationId, plan.eventCount);
    if (firstId === null) throw new IdSpaceExhausted('event');
    const lastId = firstId + plan.eventCount - 1;
    if (firstId <= ID_WARNING_THRESHOLD && ID_WARNING_THRESHOLD <= lastId) {
      ctx.services.log.warn({ organizationId }, `organization has used 90% of its event ids (id ${ID_WARNING_THRESHOLD})`);
    }
    written.events += await writeEvents(tx, organizationId, plan, firstId);
    await insertImportedDailyCounts(tx, organizationId, plan.id);
    await insertImportedUsers(tx, organizationId, plan.id);
  }
  for (const names of chunks(plan.categories)) await insertCategories(tx, organizationId, plan.id, names);
  for (const drafts of chunks(plan.insights)) {
    const ids = await insertInsights(tx, organizationId, plan.id, drafts);
    if (ids === 'exhausted') throw new IdSpaceExhausted('insight');
    written.insights += ids.length;
  }
  await insertImportedAlerts(tx, organizationId, plan.id, plan.alerts);
}

/**
 * POST /api/import, once every row of the document is checked (readImport.ts): the whole
 * document is written in one transaction, 1000 rows per statement, under fresh project ids. The
 * counts are of rows the statements wrote.
 */
export async function importDocument({ ctx, input: plans }: VerbArgs<ProjectPlan[]>): Promise<Static<typeof ImportResult>> {
  const { organizationId } = ctx;
  const written = await withTransaction(ctx.services.sql, async (tx) => {
    // A 100,000-event document's COPY and counts take seconds by design; concurrent imports are bounded instead.
    await withoutStatementTimeout(tx);
    const result: Written = { projects: [], events: 0, insights: 0 };
    for (const batch of chunks(plans)) {
      result.projects.push(...(await insertProjects(tx, organizationId, batch.map(({ id, name }) => ({ id, name })))));
    }
    const created = new Set(result.projects);
    for (const plan of plans) if (created.has(plan.id)) await writeProject(ctx, tx, plan, result);
    await recordAudit(tx, ctx, { action: 'import', target: null });
    return result;
  });
  countEventsCreated('import', written.events);
  const created = new Set(written.projects);
  const imported = plans.filter((plan) => created.has(plan.id));
  ctx.services.bus.announce(imported.map((plan) => ({ type: 'import.completed', organizationId, projectId: plan.id })));
  return {
    imported: { projects: written.projects.length, events: written.events, insights: written.insights },
    idMap: Object.fromEntries(imported.map((plan) => [plan.label, plan.id])),
  };
}

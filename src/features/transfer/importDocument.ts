import type { Static } from '@sinclair/typebox';
import type { Ctx, VerbArgs } from '../../context.ts';
import { type TransactionSql, withTransaction, withoutStatementTimeout } from '../../db/client.ts';
import { IdSpaceExhausted } from '../../lib/errors.ts';
import { countEventsCreated } from '../../metrics.ts';
import { insertImportedAlerts } from '../alerts/transferAlerts.ts';
import { writeImportedGroups } from '../groups/transferGroups.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { countImportedDays, importCategories } from '../events/importEvents.ts';
import { importInsights } from '../insights/importInsights.ts';
import { importUsersOfEvents } from '../profiles/importUsers.ts';
import { writeImportedProjects } from '../projects/importProjects.ts';
import { ImportWriter } from './importWriter.ts';
import { IMPORT_CHUNK, type ProjectPlan } from './planImport.ts';
import { readImport } from './readImport.ts';
import type { ImportResult } from './schemas.ts';

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

interface ImportUpload {
  /** The request body as it arrived; consumed as it is read. */
  body: Buffer[];
  /** The application's JSON parser (it refuses `__proto__` keys); throws on text that is not JSON. */
  parse: (text: string) => unknown;
}

/**
 * What a project adds up to once its events are written: the counts, users and categories of
 * its events, its groups, its insights and alerts. Imported history is not news: notify events are stored
 * as such but not fanned out, and the monthly usage is not charged.
 */
async function completeProject(ctx: Ctx, tx: TransactionSql, plan: ProjectPlan, written: Written): Promise<void> {
  const { organizationId } = ctx;
  if (plan.eventCount > 0) {
    await countImportedDays(tx, organizationId, plan.id);
    await importUsersOfEvents(tx, organizationId, plan.id);
  }
  // After the users of its events, so that a member with events keeps their counts.
  await writeImportedGroups(ctx, tx, plan.id, plan.groups);
  for (const names of chunks(plan.categories)) await importCategories(tx, organizationId, plan.id, names);
  for (const drafts of chunks(plan.insights)) {
    const ids = await importInsights(tx, organizationId, plan.id, drafts);
    if (ids === 'exhausted') throw new IdSpaceExhausted('insight');
    written.insights += ids.length;
  }
  await insertImportedAlerts(tx, organizationId, plan.id, plan.alerts);
}

/** Reads and checks the document while its events are written; waits for the writer whatever happens. */
async function readAndWrite(ctx: Ctx, tx: TransactionSql, upload: ImportUpload): Promise<{ plans: ProjectPlan[]; events: number }> {
  const writer = new ImportWriter(ctx, tx);
  try {
    const plans = await readImport(upload.body, { parse: upload.parse, writer });
    return { plans, events: await writer.finish() };
  } finally {
    writer.abandon();
    await writer.settled();
  }
}

/**
 * POST /api/import: the whole document in one transaction, read and checked row by row while
 * the checked events are written, 1000 rows per statement, under fresh project ids (decision
 * 160). Any problem of the document rolls back what was written. The counts are of rows the
 * statements wrote.
 */
export async function importDocument({ ctx, input }: VerbArgs<ImportUpload>): Promise<Static<typeof ImportResult>> {
  const { organizationId } = ctx;
  const { written, plans } = await withTransaction(ctx.services.sql, async (tx) => {
    // A 100,000-event document's COPY and counts take seconds by design; concurrent imports are bounded instead.
    await withoutStatementTimeout(tx);
    const { plans, events } = await readAndWrite(ctx, tx, input);
    const result: Written = { projects: [], events, insights: 0 };
    for (const batch of chunks(plans)) {
      result.projects.push(
        ...(await writeImportedProjects(
          tx,
          organizationId,
          batch.map(({ id, name }) => ({ id, name })),
        )),
      );
    }
    for (const plan of plans) await completeProject(ctx, tx, plan, result);
    await recordAudit(tx, ctx, { action: 'import', target: null });
    return { written: result, plans };
  });
  countEventsCreated('import', written.events);
  ctx.services.bus.announce(plans.map((plan) => ({ type: 'import.completed', organizationId, projectId: plan.id })));
  return {
    imported: { projects: written.projects.length, events: written.events, insights: written.insights },
    idMap: Object.fromEntries(plans.map((plan) => [plan.label, plan.id])),
  };
}

import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import type { TransactionSql } from '../../db/client.ts';
import { IdSpaceExhausted } from '../../http/errors.ts';
import { insertEvents } from '../events/queries.ts';
import { insertInsights } from '../insights/queries.ts';
import { type ImportInput, type ProjectPlan, planImport } from './planImport.ts';
import { insertCategories, insertProjects, markFavorited } from './queries.ts';
import type { ImportResult } from './schemas.ts';

/** Rows per insert statement (spec). */
export const IMPORT_CHUNK = 1000;

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
 * Chunks of 1000 events. Each chunk's statement is built and queued while the previous one runs,
 * so the JSON work overlaps the database's. Returns the ids written of events marked favorited.
 */
async function writeEvents(tx: TransactionSql, organizationId: string, plan: ProjectPlan, written: Written): Promise<number[]> {
  const send = (start: number) => {
    const drafts = plan.events.slice(start, start + IMPORT_CHUNK).map((draft) => ({ ...draft, organizationId }));
    // Imported history is not news: notify events are stored as such but not fanned out.
    const pending = insertEvents(tx, drafts, { fanOut: false, usage: 'none' });
    // Awaited below; this only keeps a chunk queued behind a failed one from being "unhandled".
    pending.catch(() => {});
    return pending;
  };
  const favorites: number[] = [];
  let pending = plan.events.length > 0 ? send(0) : undefined;
  for (let start = 0; pending; start += IMPORT_CHUNK) {
    const next = start + IMPORT_CHUNK < plan.events.length ? send(start + IMPORT_CHUNK) : undefined;
    const { inserted, refused } = await pending;
    // The whole import rolls back: an organization out of ids gets nothing of it.
    if (refused.length > 0) throw new IdSpaceExhausted('event');
    written.events += inserted.length;
    for (const row of inserted) if (plan.favorited[start + row.ord]) favorites.push(row.id);
    pending = next;
  }
  return favorites;
}

async function writeProject(tx: TransactionSql, organizationId: string, plan: ProjectPlan, written: Written): Promise<void> {
  for (const names of chunks(plan.categories)) await insertCategories(tx, organizationId, plan.id, names);
  const favorites = await writeEvents(tx, organizationId, plan, written);
  for (const ids of chunks(favorites)) await markFavorited(tx, organizationId, plan.id, ids);
  for (const drafts of chunks(plan.insights)) {
    const ids = await insertInsights(tx, organizationId, plan.id, drafts);
    if (ids === 'exhausted') throw new IdSpaceExhausted('insight');
    written.insights += ids.length;
  }
}

/**
 * POST /api/import. Every row is checked first; then the whole document is written in one
 * transaction, 1000 rows per statement, under fresh project ids. The counts are of rows the
 * statements wrote.
 */
export async function importDocument({ ctx, input }: VerbArgs<ImportInput>): Promise<Static<typeof ImportResult>> {
  const plans = planImport(input);
  const { organizationId } = ctx;
  const written = await ctx.services.sql.begin(async (tx) => {
    const result: Written = { projects: [], events: 0, insights: 0 };
    for (const batch of chunks(plans)) {
      result.projects.push(...(await insertProjects(tx, organizationId, batch.map(({ id, name }) => ({ id, name })))));
    }
    const created = new Set(result.projects);
    for (const plan of plans) if (created.has(plan.id)) await writeProject(tx, organizationId, plan, result);
    return result;
  });
  const created = new Set(written.projects);
  const imported = plans.filter((plan) => created.has(plan.id));
  ctx.services.bus.announce(imported.map((plan) => ({ type: 'import.completed', organizationId, projectId: plan.id })));
  return {
    imported: { projects: written.projects.length, events: written.events, insights: written.insights },
    idMap: Object.fromEntries(imported.map((plan) => [plan.label, plan.id])),
  };
}

import { Readable } from 'node:stream';
import type { VerbArgs } from '../../context.ts';
import type { Sql } from '../../db/client.ts';
import {
  type ExportEventRow,
  type ExportProjectRow,
  selectCategoryNames,
  selectExportInsights,
  selectExportProjects,
  streamExportEvents,
} from './queries.ts';

/** Events read (and written to the reply) per step. */
export const EXPORT_BATCH = 1000;

const json = JSON.stringify;

/** Tags and metadata go out as the JSON text that was stored, so key order survives. */
function eventJson(row: ExportEventRow): string {
  return (
    `{"category":${json(row.category)},"title":${json(row.title)},"description":${json(row.description)},` +
    `"icon":${json(row.icon)},"tags":${row.tags ?? 'null'},"metadata":${row.metadata ?? 'null'},` +
    `"url":${json(row.url)},"user_id":${json(row.user_id)},"notify":${row.notify},"favorited":${row.favorited},` +
    `"created_at":${row.created_at}}`
  );
}

async function* documentText(db: Sql, organizationId: string, projects: ExportProjectRow[]): AsyncGenerator<string> {
  yield '{"version":1,"projects":[';
  for (const [index, project] of projects.entries()) {
    const categories = await selectCategoryNames(db, organizationId, project.id);
    yield `${index ? ',' : ''}{"id":${json(project.id)},"name":${json(project.name)},"categories":${json(categories)},"events":[`;
    let first = true;
    for await (const rows of streamExportEvents(db, organizationId, project.id, EXPORT_BATCH)) {
      yield (first ? '' : ',') + rows.map(eventJson).join(',');
      first = false;
    }
    yield `],"insights":${json(await selectExportInsights(db, organizationId, project.id))}}`;
  }
  yield ']}';
}

/**
 * GET /api/export: the whole organization as one JSON document, written piece by piece as it is
 * read, so memory stays flat however many events there are. Everything is read in one
 * read-only snapshot on a connection of its own, held until the stream closes (finished,
 * failed, or the client went away). Projects oldest first; events oldest first within each
 * project, so an import recreates them in the same order.
 */
export async function exportDocument({ ctx }: VerbArgs<void>): Promise<Readable> {
  const db = await ctx.services.sql.reserve();
  let projects: ExportProjectRow[];
  try {
    await db`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`;
    projects = await selectExportProjects(db, ctx.organizationId);
  } catch (error) {
    await db`ROLLBACK`.catch(() => {});
    db.release();
    throw error;
  }
  const stream = Readable.from(documentText(db, ctx.organizationId, projects), { objectMode: false });
  stream.once('close', () => {
    db`ROLLBACK`
      .catch((error: unknown) => ctx.services.log.warn({ err: error }, 'export: ending its snapshot failed'))
      .finally(() => db.release());
  });
  return stream;
}

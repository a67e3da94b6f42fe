import { Readable } from 'node:stream';
import { type VerbArgs, maySee } from '../../context.ts';
import { type Db, withTransaction, withoutStatementTimeout } from '../../db/client.ts';
import { exportAlertDefinitions } from '../alerts/transferAlerts.ts';
import { exportGroups } from '../groups/transferGroups.ts';
import { type ExportEventRow, type ExportProjectRow, selectCategoryNames, selectExportInsights, selectExportProjects, streamExportEvents } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';

/** Events read (and written to the reply) per step. */
const EXPORT_BATCH = 1000;

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

async function* documentText(db: Db, organizationId: string, projects: ExportProjectRow[]): AsyncGenerator<string> {
  yield '{"version":1,"projects":[';
  for (const [index, project] of projects.entries()) {
    const categories = await selectCategoryNames(db, organizationId, project.id);
    yield `${index ? ',' : ''}{"id":${json(project.id)},"name":${json(project.name)},"categories":${json(categories)},"events":[`;
    let first = true;
    for await (const rows of streamExportEvents(db, organizationId, project.id, EXPORT_BATCH)) {
      yield (first ? '' : ',') + rows.map(eventJson).join(',');
      first = false;
    }
    yield `],"insights":${json(await selectExportInsights(db, organizationId, project.id))}`;
    yield `,"alerts":${json(await exportAlertDefinitions(db, organizationId, project.id))}`;
    yield `,"groups":${json(await exportGroups(db, organizationId, project.id))}}`;
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
export function exportDocument({ ctx }: VerbArgs<void>): Promise<Readable> {
  return new Promise((resolve, reject) => {
    let streaming = false;
    withTransaction(
      ctx.services.sql,
      async (tx) => {
        // An export reads everything the organization holds: its length is by design.
        await withoutStatementTimeout(tx);
        // A key limited to some projects exports those only (extensions.md, "Scoped API keys").
        const projects = (await selectExportProjects(tx, ctx.organizationId)).filter((project) => maySee(ctx, project.id));
        const stream = Readable.from(documentText(tx, ctx.organizationId, projects), { objectMode: false });
        // The snapshot is held until the stream closes: finished, failed, or the client went away.
        const closed = new Promise((done) => stream.once('close', done));
        // The snapshot is read-only, so the entry is written beside it, once the snapshot is taken
        // and before the first byte is sent: it exists when the reply starts (decision 121).
        await recordAudit(ctx.services.sql, ctx, { action: 'export', target: null });
        streaming = true;
        resolve(stream);
        await closed;
      },
      'isolation level repeatable read read only',
    ).catch((error: unknown) => {
      if (streaming) ctx.services.log.warn({ err: error }, 'export: ending its snapshot failed');
      else reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

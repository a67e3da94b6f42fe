import type { Db, TransactionSql } from '../../db/client.ts';
import { endCopyIn } from '../../db/driverQuirks.ts';
import { IMPORTED_COLUMNS } from './copyText.ts';

// An import's writes to the events feature's tables (transfer/importDocument.ts, decision 093),
// in the import's transaction.

/**
 * Imported history, as it was: favorites kept, under the ids importedRows gave them. COPY, not
 * INSERT: no statement to plan and no JSON to take apart (decision 093). A plain insert: the
 * rollups of a new project are counted once at the end (`insertImportedDailyCounts`).
 *
 * Resolves once the rows are sent, with `done`, which resolves with their count once PostgreSQL
 * has taken them all: the caller makes the next chunk meanwhile.
 */
export async function copyImportedEvents(tx: TransactionSql, rows: { text: string; count: number }): Promise<{ done: Promise<number> }> {
  const copy = await tx.unsafe(`COPY events (id, organization_id, project_id, ${IMPORTED_COLUMNS}) FROM STDIN`).writable();
  // Without a listener, a COPY ended by an error would take the process down with it.
  copy.on('error', () => {});
  copy.write(rows.text);
  const { done } = await endCopyIn(tx, copy);
  const count = done.then(() => rows.count);
  count.catch(() => {}); // awaited by the caller
  return { done: count };
}

/** The per-day counts of a project that was just imported, from its events, in one statement. */
export async function insertImportedDailyCounts(sql: Db, organizationId: string, projectId: string): Promise<void> {
  await sql`
    INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
    SELECT e.organization_id, e.project_id, e.created_at::date, e.category, count(*)
    FROM events e WHERE e.organization_id = ${organizationId} AND e.project_id = ${projectId}
    GROUP BY 1, 2, 3, 4`;
}

/** Categories named in the file, including ones no event uses. */
export async function insertImportedCategories(sql: Db, organizationId: string, projectId: string, names: string[]): Promise<void> {
  await sql`
    INSERT INTO categories (organization_id, project_id, name)
    SELECT p.organization_id, p.id, c.name FROM json_array_elements_text(${JSON.stringify(names)}::text::json) AS c(name)
    JOIN projects p ON p.organization_id = ${organizationId} AND p.id = ${projectId} AND p.deleted_at IS NULL
    ON CONFLICT DO NOTHING`;
}

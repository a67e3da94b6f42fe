import type { Db, TransactionSql } from '../../db/client.ts';
import { copyImportedEvents, insertImportedCategories, insertImportedDailyCounts } from './importQueries.ts';

// What an import (transfer/) writes of the events feature's tables, in the import's transaction:
// the events themselves (their lines made by copyText.ts), the categories the file names, and a
// project's per-day counts once its events are in. The ids come from idCounters.ts.

/** Sends a chunk of importedRows' COPY input; `done` resolves with its count once PostgreSQL took it. */
export function sendImportedEvents(tx: TransactionSql, rows: { text: string; count: number }): Promise<{ done: Promise<number> }> {
  return copyImportedEvents(tx, rows);
}

/** The per-day counts of a project just imported, from its events. */
export function countImportedDays(tx: Db, organizationId: string, projectId: string): Promise<void> {
  return insertImportedDailyCounts(tx, organizationId, projectId);
}

/** The project's categories the file names, including ones no event uses. */
export function importCategories(tx: Db, organizationId: string, projectId: string, names: string[]): Promise<void> {
  return insertImportedCategories(tx, organizationId, projectId, names);
}

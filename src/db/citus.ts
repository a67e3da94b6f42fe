import type { Db } from './client.ts';

/** Whether this database is a Citus coordinator's (the extension is installed in it). */
export async function isCitus(sql: Db): Promise<boolean> {
  const [row] = await sql`SELECT 1 AS present FROM pg_extension WHERE extname = 'citus'`;
  return row !== undefined;
}

/**
 * Why `eventlog backup` and `eventlog restore` refuse a Citus database (docs/scaling.md, "Backups
 * on Citus"): a transaction on the coordinator fixes no snapshot across the workers, so a backup
 * taken while events arrive would not be consistent, and a restore would write local tables.
 */
export const CITUS_BACKUP_REFUSAL =
  'eventlog backup does not back up a Citus cluster: one transaction on the coordinator sees no single snapshot of the workers. ' +
  "Use Citus's own way: SELECT citus_create_restore_point('name') on the coordinator, with a base backup and WAL archive of every node (docs/scaling.md)";

export const CITUS_RESTORE_REFUSAL =
  'eventlog restore does not restore into a Citus database: restore into an empty database without the citus extension, ' +
  'then create the extension, add the workers and start Eventlog, which distributes the restored tables (docs/scaling.md)';

import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { checkCategory, checkFilter, checkName } from './checkAlertInput.ts';
import { checkAlertRoom } from './alertLimit.ts';
import { type NewAlert, insertAlert, listAlerts, scheduleNow } from './queries.ts';
import type { CreateAlertBody } from './schemas.ts';

// A project's alerts in the export document and back (features/transfer/): definitions only,
// in the create body's shape; state and history stay behind.

type AlertDefinitionBody = Static<typeof CreateAlertBody>;

/** The project's alert definitions, oldest first, as POST .../alerts would take them. */
export async function exportAlertDefinitions(db: Db, organizationId: string, projectId: string): Promise<AlertDefinitionBody[]> {
  return (await listAlerts(db, organizationId, projectId)).map((row) => ({
    name: row.name,
    filter: row.filter,
    condition: { count: row.countMode, threshold: row.threshold, windowSeconds: row.windowSeconds },
    category: row.category,
    renotifySeconds: row.renotifySeconds,
    enabled: row.enabled,
    // Only when set, so an export of ordinary alerts reads as it did before alerts had it.
    ...(row.critical ? { critical: true } : {}),
  }));
}

/** An imported definition checked as a create is (the schema already checked the ranges). */
export function checkAlertDefinition(body: AlertDefinitionBody): Omit<NewAlert, 'id' | 'projectId' | 'now'> {
  return {
    name: checkName(body.name),
    filter: checkFilter(body.filter),
    countMode: body.condition.count,
    threshold: body.condition.threshold,
    windowSeconds: body.condition.windowSeconds,
    category: checkCategory(body.category),
    renotifySeconds: body.renotifySeconds ?? null,
    enabled: body.enabled ?? true,
    critical: body.critical ?? false,
  };
}

/** Creates the imported alerts in a new project, each starting "ok" with a new id. */
export async function insertImportedAlerts(
  db: Db,
  organizationId: string,
  projectId: string,
  alerts: Array<ReturnType<typeof checkAlertDefinition>>,
): Promise<void> {
  if (alerts.length === 0) return;
  const now = new Date();
  await checkAlertRoom(db, organizationId, alerts.length, now);
  for (const alert of alerts) await insertAlert(db, organizationId, { ...alert, id: newId(), projectId, now });
  await scheduleNow(db, organizationId, now);
}

import type { Ctx } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { NotFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { type AlertObject, alertFromRow } from './alertObject.ts';
import { type AlertDefinition, type AlertRow, findAlert, scheduleNow, writeDefinition } from './queries.ts';

/** An evaluation that keeps moving the alert between our read and our write is retried this often. */
const ATTEMPTS = 5;

/**
 * Applies `change` to the alert's current row with a compare-and-set on its revision, so a
 * change never overwrites a transition the engine made in between (nor the reverse), then asks
 * the engine to look at the organization at once. The audit log records it as `alert.update`
 * (a mute too), in the write's transaction.
 */
export async function changeAlert(ctx: Ctx, alertId: string, change: (row: AlertRow, now: Date) => AlertDefinition): Promise<AlertObject> {
  const { sql } = ctx.services;
  for (let attempt = 1; ; attempt++) {
    const row = await findAlert(sql, ctx.organizationId, alertId);
    if (!row) throw new NotFound('Alert');
    const now = new Date();
    const written = await withTransaction(sql, async (tx) => {
      const updated = await writeDefinition(tx, ctx.organizationId, alertId, row.revision, change(row, now));
      if (updated) await recordAudit(tx, ctx, { action: 'alert.update', target: { type: 'alert', id: alertId } });
      return updated;
    });
    if (written) {
      await scheduleNow(sql, ctx.organizationId, now);
      return alertFromRow(written);
    }
    if (attempt >= ATTEMPTS) throw new Error('the alert kept changing while it was being updated');
  }
}

/** The row's definition as it stands: the starting point of every change. */
export function definitionOf(row: AlertRow): AlertDefinition {
  return {
    name: row.name,
    filter: row.filter,
    countMode: row.countMode,
    threshold: row.threshold,
    windowSeconds: row.windowSeconds,
    category: row.category,
    renotifySeconds: row.renotifySeconds,
    enabled: row.enabled,
    critical: row.critical,
    state: row.state,
    stateSince: row.stateSince,
    count: row.count,
    windowStart: row.windowStart,
    mutedUntil: row.mutedUntil,
    nextDueAt: row.nextDueAt,
  };
}

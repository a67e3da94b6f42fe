import type { VerbArgs } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { NotFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { deleteAlert as removeAlert } from './queries.ts';

/** POST /api/alerts/:alertId/delete: the alert and its history. */
export async function deleteAlert({ ctx, input }: VerbArgs<{ alertId: string }>): Promise<{ id: string; deleted: true }> {
  await withTransaction(ctx.services.sql, async (tx) => {
    if (!(await removeAlert(tx, ctx.organizationId, input.alertId))) throw new NotFound('Alert');
    await recordAudit(tx, ctx, { action: 'alert.delete', target: { type: 'alert', id: input.alertId } });
  });
  return { id: input.alertId, deleted: true };
}

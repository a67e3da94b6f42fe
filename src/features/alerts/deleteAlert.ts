import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteAlert as removeAlert } from './queries.ts';

/** POST /api/alerts/:alertId/delete: the alert and its history. */
export async function deleteAlert({ ctx, input }: VerbArgs<{ alertId: string }>): Promise<{ id: string; deleted: true }> {
  if (!(await removeAlert(ctx.services.sql, ctx.organizationId, input.alertId))) throw new NotFound('Alert');
  return { id: input.alertId, deleted: true };
}

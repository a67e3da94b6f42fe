import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { type AlertObject, alertFromRow } from './alertObject.ts';
import { findAlert } from './queries.ts';

export async function getAlert({ ctx, input }: VerbArgs<{ alertId: string }>): Promise<AlertObject> {
  const row = await findAlert(ctx.services.sql, ctx.organizationId, input.alertId);
  if (!row) throw new NotFound('Alert');
  return alertFromRow(row);
}

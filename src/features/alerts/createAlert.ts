import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { NotFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { newId } from '../../lib/ids.ts';
import { type AlertObject, alertFromRow } from './alertObject.ts';
import { checkCategory, checkFilter, checkName } from './checkAlertInput.ts';
import { checkAlertRoom } from './alertLimit.ts';
import { insertAlert, scheduleNow } from './queries.ts';
import type { CreateAlertBody } from './schemas.ts';

type CreateAlertInput = Static<typeof CreateAlertBody> & { projectId: string };

/**
 * POST /api/projects/:projectId/alerts: state "ok" until the engine's first look, within one pass.
 * 400 past MAX_ALERTS_PER_ORGANIZATION.
 */
export async function createAlert({ ctx, input }: VerbArgs<CreateAlertInput>): Promise<AlertObject> {
  const { sql } = ctx.services;
  const now = new Date();
  const alert = {
    id: newId(),
    projectId: input.projectId,
    name: checkName(input.name),
    filter: checkFilter(input.filter),
    countMode: input.condition.count,
    threshold: input.condition.threshold,
    windowSeconds: input.condition.windowSeconds,
    category: checkCategory(input.category),
    renotifySeconds: input.renotifySeconds ?? null,
    enabled: input.enabled ?? true,
    critical: input.critical ?? false,
    now,
  };
  const row = await withTransaction(sql, async (tx) => {
    await checkAlertRoom(tx, ctx.organizationId, 1, now);
    const inserted = await insertAlert(tx, ctx.organizationId, alert);
    if (!inserted) throw new NotFound('Project');
    await recordAudit(tx, ctx, { action: 'alert.create', target: { type: 'alert', id: inserted.id } });
    return inserted;
  });
  await scheduleNow(sql, ctx.organizationId, now);
  return alertFromRow(row);
}

import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { type AlertObject, alertFromRow } from './alertObject.ts';
import { checkCategory, checkFilter, checkName } from './checkAlertInput.ts';
import { insertAlert, scheduleNow } from './queries.ts';
import type { CreateAlertBody } from './schemas.ts';

type CreateAlertInput = Static<typeof CreateAlertBody> & { projectId: string };

/** POST /api/projects/:projectId/alerts: state "ok" until the engine's first look, within one pass. */
export async function createAlert({ ctx, input }: VerbArgs<CreateAlertInput>): Promise<AlertObject> {
  const { sql } = ctx.services;
  const now = new Date();
  const row = await insertAlert(sql, ctx.organizationId, {
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
    now,
  });
  if (!row) throw new NotFound('Project');
  await scheduleNow(sql, ctx.organizationId, now);
  return alertFromRow(row);
}

import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import type { AlertObject } from './alertObject.ts';
import { changeAlert, definitionOf } from './changeAlert.ts';
import { checkCategory, checkFilter, checkName } from './checkAlertInput.ts';
import type { UpdateAlertBody } from './schemas.ts';

type UpdateAlertInput = Static<typeof UpdateAlertBody> & { alertId: string };

/**
 * PATCH /api/alerts/:alertId. A new filter or condition, or enabling, restarts the window (it
 * never reaches back before that moment); disabling sets the state to "ok" without a transition.
 */
export async function updateAlert({ ctx, input }: VerbArgs<UpdateAlertInput>): Promise<AlertObject> {
  const name = input.name === undefined ? undefined : checkName(input.name);
  const filter = input.filter === undefined ? undefined : checkFilter(input.filter);
  const category = input.category === undefined ? undefined : checkCategory(input.category);
  return changeAlert(ctx, input.alertId, (row, now) => {
    const next = definitionOf(row);
    if (name !== undefined) next.name = name;
    if (category !== undefined) next.category = category;
    if (input.critical !== undefined) next.critical = input.critical;
    if (input.renotifySeconds !== undefined) next.renotifySeconds = input.renotifySeconds;
    const filterChanged = filter !== undefined && JSON.stringify(filter) !== JSON.stringify(row.filter);
    if (filter !== undefined) next.filter = filter;
    const condition = input.condition;
    const conditionChanged =
      condition !== undefined && (condition.count !== row.countMode || condition.threshold !== row.threshold || condition.windowSeconds !== row.windowSeconds);
    if (condition) {
      next.countMode = condition.count;
      next.threshold = condition.threshold;
      next.windowSeconds = condition.windowSeconds;
    }
    const enabling = input.enabled === true && !row.enabled;
    const disabling = input.enabled === false && row.enabled;
    if (input.enabled !== undefined) next.enabled = input.enabled;
    if (filterChanged || conditionChanged || enabling) {
      next.windowStart = now;
      next.count = null;
    }
    if (enabling || (disabling && row.state === 'firing')) {
      next.state = 'ok';
      next.stateSince = now;
    }
    next.nextDueAt = now;
    return next;
  });
}

import type { VerbArgs } from '../../context.ts';
import type { AlertObject } from './alertObject.ts';
import { changeAlert, definitionOf } from './changeAlert.ts';
import { checkMuteUntil } from './checkAlertInput.ts';

/** POST /api/alerts/:alertId/mute: until then transitions are recorded but create no events. */
export async function muteAlert({ ctx, input }: VerbArgs<{ alertId: string; until: number | null }>): Promise<AlertObject> {
  const mutedUntil = checkMuteUntil(input.until);
  return changeAlert(ctx, input.alertId, (row) => ({ ...definitionOf(row), mutedUntil }));
}

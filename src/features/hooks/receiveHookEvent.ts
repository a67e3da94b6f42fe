import type { Services } from '../../context.ts';
import { TooManyRequests } from '../../http/errors.ts';
import { type EventObject, eventFromDraft } from '../events/eventObject.ts';
import { insertEvents } from '../events/queries.ts';
import { validateEventInput } from '../events/validateEventInput.ts';
import { type HookRequest, hookEventInput } from './hookEventInput.ts';
import { type ActiveHook, countMonthlyEvent } from './queries.ts';

/** Thrown inside the transaction to undo the usage count when the hook's project vanished. */
class ProjectGone extends Error {}

/**
 * Creates the event a hook request describes, or null when the hook's project no longer exists
 * (the caller answers that like an unknown token). The input is checked before anything is
 * written; the monthly cap is checked and counted in the event's own transaction, so a refused or
 * failed request counts nothing and creates nothing, and concurrent requests cannot pass the cap.
 */
export async function receiveHookEvent({
  services,
  input,
}: {
  services: Services;
  input: { hook: ActiveHook; request: HookRequest };
}): Promise<EventObject | null> {
  const { hook } = input;
  const draft = validateEventInput(hookEventInput({ projectId: hook.projectId, category: hook.category }, input.request));
  let inserted;
  try {
    inserted = await services.sql.begin(async (tx) => {
      if (!(await countMonthlyEvent(tx, hook.organizationId))) {
        throw new TooManyRequests('This organization has reached its monthly event cap');
      }
      const [row] = await insertEvents(tx, [{ ...draft, organizationId: hook.organizationId }]);
      if (!row) throw new ProjectGone();
      return row;
    });
  } catch (error) {
    if (error instanceof ProjectGone) return null;
    throw error;
  }
  // Same announcement as POST /api/events: live feeds refresh and delivery workers wake up.
  services.bus.announce({ type: 'event.created', organizationId: hook.organizationId, projectId: hook.projectId, id: inserted.id });
  return eventFromDraft(draft, inserted.id, inserted.createdMicros);
}

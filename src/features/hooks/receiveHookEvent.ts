import type { InstallationCtx } from '../../context.ts';
import { countEventsCreated } from '../../metrics.ts';
import { acceptedEvent, announceCreated } from '../events/createEvent.ts';
import { type EventObject, eventFromDraft } from '../events/eventObject.ts';
import { validateEventInput } from '../events/validateEventInput.ts';
import { type HookRequest, hookEventInput } from './hookEventInput.ts';
import type { ActiveHook } from '../../ports.ts';
import { DELIVERY_MARKER_HEADER, deliveryOrigin } from '../delivery/deliveryMarker.ts';

/**
 * Creates the event a hook request describes. The input is checked before anything is written;
 * the monthly cap is checked and counted by the statement that writes the event (group commit,
 * the usage row's lock serialising concurrent statements), so a refused request counts nothing
 * and creates nothing, and concurrent requests cannot pass the cap together. The caller shows no
 * credential but the hook's token, which already chose the hook and so the organization.
 *
 * A request that came from an Eventlog delivery (it bears the delivery marker header) is stored
 * without notify, whatever it asks: it is seen and fans out no further (no loops, decision 175).
 * `note` then says so, for the hook's answer and so for the delivering side's attempt log.
 */
export async function receiveHookEvent({
  ctx,
  input,
}: {
  ctx: InstallationCtx;
  input: { hook: ActiveHook; request: HookRequest };
}): Promise<{ event: EventObject; note: string | null }> {
  const { services } = ctx;
  const { hook } = input;
  const fields = hookEventInput({ projectId: hook.projectId, category: hook.category, template: hook.template }, input.request);
  const origin = await deliveryOrigin(services.sql, input.request.headers[DELIVERY_MARKER_HEADER]);
  const asked = validateEventInput(fields);
  const draft = origin ? { ...asked, notify: false } : asked;
  const inserted = acceptedEvent(await services.hookIngest.insert({ ...draft, organizationId: hook.organizationId }));
  countEventsCreated('hook');
  announceCreated(services.bus, { organizationId: hook.organizationId, projectId: hook.projectId, id: inserted.id, notify: draft.notify });
  return { event: eventFromDraft(draft, inserted.id, inserted.createdMicros, fields), note: origin?.note ?? null };
}

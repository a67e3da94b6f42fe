import type { Ctx, VerbArgs } from '../../context.ts';
import { NotFound } from '../../http/errors.ts';
import { type EventObject, eventFromDraft } from './eventObject.ts';
import { type EventInput, validateEventInput } from './validateEventInput.ts';

/**
 * POST /api/events. The write goes through the group-commit batcher; notify events get their
 * outbox row in the same statement, so fan-out happens after the reply without being lost.
 */
export async function createEvent({ ctx, input }: VerbArgs<EventInput>): Promise<EventObject> {
  const draft = validateEventInput(input);
  const inserted = await ctx.services.ingest.insert({ ...draft, organizationId: ctx.organizationId });
  if (!inserted) throw new NotFound('Project');
  announceCreated(ctx, draft.projectId, inserted.id);
  return eventFromDraft(draft, inserted.id, inserted.createdMicros);
}

export function announceCreated(ctx: Ctx, projectId: string, id: number): void {
  ctx.services.bus.announce({ type: 'event.created', organizationId: ctx.organizationId, projectId, id });
}

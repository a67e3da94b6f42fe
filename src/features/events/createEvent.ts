import type { VerbArgs } from '../../context.ts';
import type { Bus } from '../../db/bus.ts';
import { countEventsCreated } from '../../metrics.ts';
import { IdSpaceExhausted, NotFound, RateLimited } from '../../lib/errors.ts';
import type { IngestOutcome } from './ingestQueue.ts';
import type { InsertedEvent } from './queries.ts';
import { type EventObject, eventFromDraft } from './eventObject.ts';
import { type EventInput, validateEventInput } from './validateEventInput.ts';

/**
 * POST /api/events. The write goes through the group-commit batcher; notify events get their
 * outbox row in the same statement, so fan-out happens after the reply without being lost.
 */
export async function createEvent({ ctx, input }: VerbArgs<EventInput>): Promise<EventObject> {
  const draft = validateEventInput(input);
  const inserted = acceptedEvent(await ctx.services.ingest.insert({ ...draft, organizationId: ctx.organizationId }));
  countEventsCreated(ctx.actor.kind === 'user' ? 'dashboard' : 'api');
  announceCreated(ctx.services.bus, { organizationId: ctx.organizationId, projectId: draft.projectId, id: inserted.id, notify: draft.notify });
  return eventFromDraft(draft, inserted.id, inserted.createdMicros, input);
}

/** The written row, or the error its refusal means to the client. */
export function acceptedEvent(outcome: IngestOutcome): InsertedEvent {
  if (outcome === null) throw new NotFound('Project');
  if ('refused' in outcome) {
    if (outcome.refused === 'ids') throw new IdSpaceExhausted('event');
    throw new RateLimited('This organization has reached its monthly event cap');
  }
  return outcome;
}

/**
 * Live feeds refresh on it. `notify` is set only for notify events: the delivery workers wake
 * for those alone (their poll finds anything a lost announcement missed).
 */
export function announceCreated(bus: Bus, event: { organizationId: string; projectId: string; id: number; notify: boolean }): void {
  const { organizationId, projectId, id, notify } = event;
  bus.announce({ type: 'event.created', organizationId, projectId, id, ...(notify ? { notify: true } : {}) });
}

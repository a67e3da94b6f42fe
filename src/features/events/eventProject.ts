import type { VerbArgs } from '../../context.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { findEvent } from './queries.ts';

/** The project of an event the path names, for a key limited to some projects (http/routeScope.ts). */
export async function eventProject({ ctx, input }: VerbArgs<{ eventId?: string }>): Promise<string | undefined> {
  return (await findEvent(ctx.services.sql, ctx.organizationId, parsePositiveInt32(input.eventId ?? '', 'event id')))?.projectId;
}

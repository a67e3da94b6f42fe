import type { VerbArgs } from '../../context.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { findEventProject } from './queries.ts';

/** The project of an event the path names, for a key limited to some projects (http/routeScope.ts). */
export async function eventProject({ ctx, input }: VerbArgs<{ eventId?: string }>): Promise<string | undefined> {
  return findEventProject(ctx.services.sql, ctx.organizationId, parsePositiveInt32(input.eventId ?? '', 'event id'));
}

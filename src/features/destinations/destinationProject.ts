import type { VerbArgs } from '../../context.ts';
import { findDestinationProject } from './queries.ts';

/** The project of a destination the path names, for a key limited to some projects (http/routeScope.ts). */
export async function destinationProject({ ctx, input }: VerbArgs<{ destinationId?: string }>): Promise<string | undefined> {
  return findDestinationProject(ctx.services.sql, ctx.organizationId, input.destinationId ?? '');
}

import type { VerbArgs } from '../../context.ts';
import { findHookProject } from './queries.ts';

/** The project of a hook the path names, for a key limited to some projects (http/routeScope.ts). */
export async function hookProject({ ctx, input }: VerbArgs<{ hookId?: string }>): Promise<string | undefined> {
  return findHookProject(ctx.services.sql, ctx.organizationId, input.hookId ?? '');
}

import type { Ctx } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { findProjectsByIdOrName } from './queries.ts';

/**
 * A project named the LogSnag way (extensions.md, "LogSnag-compatible ingestion"): its id or,
 * failing that, its exact name. Two projects of that name are 400, none is 404.
 */
export async function resolveProjectReference(ctx: Ctx, reference: string): Promise<string> {
  if (reference.trim() === '') throw new InvalidInput('project is required');
  const matches = await findProjectsByIdOrName(ctx.services.sql, ctx.organizationId, reference);
  if (matches.length === 0) throw new NotFound('Project');
  if (matches.length > 1) throw new InvalidInput(`two projects are named ${JSON.stringify(reference)}; name the project by its id`);
  return matches[0]!.id;
}

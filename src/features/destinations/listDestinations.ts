import type { VerbArgs } from '../../context.ts';
import { requireProject } from '../projects/requireProject.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { listDestinations as selectDestinations } from './queries.ts';

export async function listDestinations({ ctx, input }: VerbArgs<{ projectId: string }>): Promise<DestinationObject[]> {
  // An empty list must not stand for another organization's project: that is a 404.
  await requireProject(ctx, input.projectId);
  const rows = await selectDestinations(ctx.services.sql, ctx.organizationId, input.projectId);
  return rows.map(destinationFromRow);
}

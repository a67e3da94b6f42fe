import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, IdSpaceExhausted, NotFound } from '../../lib/errors.ts';
import { isIdWarning } from '../../lib/idSpace.ts';
import { upsertInsightRow as writeInsight } from './insightWrites.ts';
import type { UpsertInsightBody } from './schemas.ts';
import { validateInsightInput } from './validateInsightInput.ts';

/** POST /api/insight: create the (project, title) card, or update its value (and icon if given). */
export async function upsertInsight({ ctx, input }: VerbArgs<Static<typeof UpsertInsightBody>>): Promise<{ ok: true }> {
  if (input.project.trim() === '') throw new InvalidInput('project is required');
  const draft = validateInsightInput(input);
  const row = await writeInsight(ctx.services.sql, ctx.organizationId, input.project, draft);
  if (!row) throw new NotFound('Project');
  if (row.outcome === 'exhausted') throw new IdSpaceExhausted('insight');
  if (row.outcome === 'inserted' && isIdWarning(row.id)) {
    ctx.services.log.warn({ organizationId: ctx.organizationId }, `organization has used 90% of its insight ids (id ${row.id})`);
  }
  ctx.services.bus.announce({ type: 'insight.upserted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { ok: true };
}

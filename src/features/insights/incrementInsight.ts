import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, IdSpaceExhausted, NotFound } from '../../lib/errors.ts';
import { isIdWarning } from '../../lib/idSpace.ts';
import { incrementInsightRow as addToInsight } from './insightWrites.ts';
import { NOT_A_NUMBER } from './queries.ts';
import type { IncrementInsightBody } from './schemas.ts';
import { validateInsightInput } from './validateInsightInput.ts';

/**
 * PATCH /api/insight (extensions.md, "Insight counters"): adds `value.$inc` to the card, which
 * starts at 0 when missing. One statement, so parallel increments never lose one.
 */
export async function incrementInsight({ ctx, input }: VerbArgs<Static<typeof IncrementInsightBody>>): Promise<{ ok: true; value: string }> {
  if (input.project.trim() === '') throw new InvalidInput('project is required');
  const increment = input.value.$inc;
  // JSON has no Infinity, but 1e400 parses to it.
  if (typeof increment !== 'number' || !Number.isFinite(increment)) throw new InvalidInput('value.$inc must be a finite number');
  const { title, icon } = validateInsightInput({ title: input.title, value: 0, icon: input.icon });
  let row;
  try {
    row = await addToInsight(ctx.services.sql, ctx.organizationId, input.project, { title, increment, icon });
  } catch (error) {
    if ((error as { code?: unknown }).code === NOT_A_NUMBER) {
      throw new InvalidInput(`cannot increment: ${(error as Error).message}`);
    }
    throw error;
  }
  if (!row) throw new NotFound('Project');
  if ('outcome' in row) throw new IdSpaceExhausted('insight');
  if (isIdWarning(row.id)) {
    ctx.services.log.warn({ organizationId: ctx.organizationId }, `organization has used 90% of its insight ids (id ${row.id})`);
  }
  ctx.services.bus.announce({ type: 'insight.upserted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { ok: true, value: row.value };
}

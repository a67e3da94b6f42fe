import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { findDestination, selectHealth } from './queries.ts';
import type { Health } from './schemas.ts';

/** How many of the latest finished deliveries the health line looks at. */
const HEALTH_WINDOW = 50;

/**
 * The Settings row's health line: the success rate of the destination's latest 50 finished
 * deliveries (pending ones have no outcome yet; Test deliveries are left out, as in the run that
 * disables a destination). successRate is null before the first one.
 */
export async function destinationHealth({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<Static<typeof Health>> {
  const { sql } = ctx.services;
  const destination = await findDestination(sql, ctx.organizationId, input.destinationId);
  if (!destination) throw new NotFound('Destination');
  const { finished, succeeded } = await selectHealth(sql, ctx.organizationId, input.destinationId, HEALTH_WINDOW);
  return {
    window: HEALTH_WINDOW,
    deliveries: finished,
    succeeded,
    successRate: finished === 0 ? null : succeeded / finished,
  };
}

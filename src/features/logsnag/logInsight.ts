import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { incrementInsight } from '../insights/incrementInsight.ts';
import { upsertInsight } from '../insights/upsertInsight.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import type { LogInsightBody, LogInsightIncrementBody } from './schemas.ts';

/** POST /v1/insight: POST /api/insight with the project named by id or name. */
export async function logInsight({ ctx, input }: VerbArgs<Static<typeof LogInsightBody>>): Promise<{ ok: true }> {
  return upsertInsight({ ctx, input: { ...input, project: await resolveProjectReference(ctx, input.project) } });
}

/** PATCH /v1/insight: PATCH /api/insight with the project named by id or name. */
export async function incrementLoggedInsight({ ctx, input }: VerbArgs<Static<typeof LogInsightIncrementBody>>): Promise<{ ok: true; value: string }> {
  return incrementInsight({ ctx, input: { ...input, project: await resolveProjectReference(ctx, input.project) } });
}

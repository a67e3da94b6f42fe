import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { countFunnel } from './queries.ts';
import type { FunnelBody, FunnelResult } from './schemas.ts';
import { parseStepFilter } from './stepFilter.ts';

const MIN_STEPS = 2;
const MAX_STEPS = 10;
const DEFAULT_WINDOW_SECONDS = 604_800;
const MIN_WINDOW_SECONDS = 60;
const MAX_WINDOW_SECONDS = 31_536_000;
/** Beyond the years timestamptz can hold; a bound further out is clamped to it. */
const MAX_SECONDS = 100_000_000_000;

function windowSeconds(raw: unknown): number {
  if (raw === undefined || raw === null) return DEFAULT_WINDOW_SECONDS;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < MIN_WINDOW_SECONDS || raw > MAX_WINDOW_SECONDS) {
    throw new InvalidInput(`windowSeconds must be an integer from ${MIN_WINDOW_SECONDS} to ${MAX_WINDOW_SECONDS}`);
  }
  return raw;
}

/** Unix seconds, fractions allowed (as the feed's `since`/`until`); null or absent: the default. */
function unixMicros(name: string, raw: unknown): bigint | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isFinite(raw)) throw new InvalidInput(`${name} must be a Unix time in seconds`);
  const seconds = Math.min(MAX_SECONDS, Math.max(-MAX_SECONDS, raw));
  return BigInt(Math.round(seconds * 1_000_000));
}

/**
 * POST /api/funnels: how many users reached each step. The project is looked up last, so a bad
 * body is a 400 whichever project it names.
 */
export async function queryFunnel({ ctx, input }: VerbArgs<Static<typeof FunnelBody>>): Promise<Static<typeof FunnelResult>> {
  if (typeof input.project !== 'string' || input.project === '') throw new InvalidInput('project is required');
  if (!Array.isArray(input.steps) || input.steps.length < MIN_STEPS || input.steps.length > MAX_STEPS) {
    throw new InvalidInput(`steps must be an array of ${MIN_STEPS} to ${MAX_STEPS} step filters`);
  }
  const steps = input.steps.map((step: unknown, index) => parseStepFilter(step, index));
  const window = windowSeconds(input.windowSeconds);
  const sinceMicros = unixMicros('since', input.since);
  const untilMicros = unixMicros('until', input.until);
  if (sinceMicros !== undefined && untilMicros !== undefined && sinceMicros >= untilMicros) {
    throw new InvalidInput('since must be before until');
  }
  const project = await requireProject(ctx, input.project);
  const users = await countFunnel(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: project.id,
    steps,
    windowSeconds: window,
    sinceMicros,
    untilMicros,
  });
  return { steps: users.map((count) => ({ users: count })) };
}

import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import { textProblem } from '../../lib/boundaryText.ts';
import { codePointLength } from '../../lib/text.ts';
import { requireProject } from '../projects/requireProject.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import { lockUserProperties, writeIdentify } from './queries.ts';
import type { IdentifyBody } from './schemas.ts';

const MAX_PROPERTY_KEYS = 100;
const MAX_PROPERTIES_BYTES = 16_384;

type Properties = Record<string, string | number | boolean | null>;

/** Text PostgreSQL's json can hold and search: the boundary's rule (no NUL, no lone surrogate). */
const storable = (text: string) => textProblem(text) === null;

function requireUserId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new InvalidInput('user_id is required: a non-empty string');
  if (codePointLength(value) > MAX_USER_ID || !storable(value)) {
    throw new InvalidInput(`user_id must be at most ${MAX_USER_ID} characters of text`);
  }
  return value;
}

function requireProperties(value: unknown): Properties {
  if (value === undefined) throw new InvalidInput('properties is required (it may be {})');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInput('properties must be a flat object');
  }
  for (const [key, property] of Object.entries(value)) {
    const scalar = property === null || ['string', 'number', 'boolean'].includes(typeof property);
    if (!scalar) throw new InvalidInput(`properties must be a flat object: "${key}" is not a string, number, boolean or null`);
    if (!storable(key) || (typeof property === 'string' && !storable(property))) {
      throw new InvalidInput('properties must not contain NUL characters or lone surrogates');
    }
  }
  return value as Properties;
}

/** A key set to null is removed, other keys are replaced, absent keys are kept. */
function mergeProperties(stored: Properties, update: Properties): Properties {
  const merged: Properties = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * POST /api/identify: merges properties into the project's user. With `byName` (POST /v1/identify,
 * LogSnag's field names) `project` may also be the exact name of one of the organization's projects.
 */
export async function identify({ ctx, input }: VerbArgs<Static<typeof IdentifyBody> & { byName?: boolean }>): Promise<{ ok: true }> {
  if (typeof input.project !== 'string' || input.project === '') throw new InvalidInput('project is required');
  const userId = requireUserId(input.user_id);
  const update = requireProperties(input.properties);
  const projectId = input.byName ? await resolveProjectReference(ctx, input.project) : (await requireProject(ctx, input.project)).id;
  const key = { organizationId: ctx.organizationId, projectId, userId };
  await withTransaction(ctx.services.sql, async (tx) => {
    const merged = mergeProperties(await lockUserProperties(tx, key), update);
    const text = JSON.stringify(merged);
    if (Object.keys(merged).length > MAX_PROPERTY_KEYS) {
      throw new InvalidInput(`a user holds at most ${MAX_PROPERTY_KEYS} properties`);
    }
    if (Buffer.byteLength(text, 'utf8') > MAX_PROPERTIES_BYTES) {
      throw new InvalidInput(`a user's properties hold at most ${MAX_PROPERTIES_BYTES} bytes of JSON`);
    }
    await writeIdentify(tx, key, text);
  });
  return { ok: true };
}

import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import { lockUserProperties, writeIdentify } from './queries.ts';
import type { IdentifyBody } from './schemas.ts';
import { type Properties, mergeProperties, requireUserId, storable } from './userInput.ts';

const MAX_PROPERTY_KEYS = 100;
const MAX_PROPERTIES_BYTES = 16_384;

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

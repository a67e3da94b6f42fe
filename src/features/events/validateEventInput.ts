import type { Static } from '@sinclair/typebox';
import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { unixSecondsToMicros } from '../../lib/time.ts';
import type { EventDraft } from '../../ports.ts';
import type { CreateEventBody } from './schemas.ts';

export type { EventDraft };

export const MAX_CATEGORY_LENGTH = 100;
export const MAX_ICON_LENGTH = 16;
const MAX_METADATA_BYTES = 65_536;
/**
 * A description's length, in characters: the incoming hook body limit (64 KB), so a plain-text
 * hook body that fits always fits. The dashboard parses its markup in well under a second.
 */
const MAX_DESCRIPTION_LENGTH = 65_536;
/** Keys of an event's tags: each renders as a badge and is searched (README, "Limits on requests"). */
const MAX_TAGS = 100;
/** 9999-12-31T23:59:59Z: the last second an ISO 8601 year of four digits can show. */
const MAX_CREATED_AT = 253_402_300_799;

export type EventInput = Static<typeof CreateEventBody>;

function text(field: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (hasNul(value)) throw new InvalidInput(`${field} must not contain NUL characters`);
  return value;
}

function required(field: string, value: string): string {
  if (value.trim() === '') throw new InvalidInput(`${field} is required`);
  return text(field, value) as string;
}

function limited(field: string, value: string | null, max: number): string | null {
  if (value !== null && codePointLength(value) > max) {
    throw new InvalidInput(`${field} must be at most ${max} characters`);
  }
  return value;
}

/** JSON text of tags or metadata; NUL is refused because PostgreSQL's json cannot hold \u0000. */
function countedTags(value: EventInput['tags']): EventInput['tags'] {
  if (value && typeof value === 'object' && Object.keys(value).length > MAX_TAGS) {
    throw new InvalidInput(`tags may hold at most ${MAX_TAGS} keys`);
  }
  return value;
}

function serialized(field: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const json = JSON.stringify(value);
  if (json.includes('\\u0000')) throw new InvalidInput(`${field} must not contain NUL characters`);
  return json;
}

/**
 * The rules of POST /api/events that a JSON schema cannot state. Shared by every path that
 * creates events (the API, incoming hooks, the playground) so they refuse the same input.
 */
export function validateEventInput(input: EventInput): EventDraft {
  const category = limited('category', required('category', input.category), MAX_CATEGORY_LENGTH) as string;
  const metadata = serialized('metadata', input.metadata);
  if (metadata !== null && Buffer.byteLength(metadata) > MAX_METADATA_BYTES) {
    throw new InvalidInput(`metadata must be at most ${MAX_METADATA_BYTES} bytes when serialized`);
  }
  let createdAtMicros: bigint | null = null;
  if (input.created_at !== undefined && input.created_at !== null) {
    const seconds = input.created_at;
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_CREATED_AT) {
      throw new InvalidInput(`created_at must be Unix seconds from 0 to ${MAX_CREATED_AT}`);
    }
    createdAtMicros = unixSecondsToMicros(seconds);
  }
  return {
    projectId: input.project,
    category,
    title: required('title', input.title),
    description: limited('description', text('description', input.description), MAX_DESCRIPTION_LENGTH),
    icon: limited('icon', text('icon', input.icon), MAX_ICON_LENGTH),
    tags: serialized('tags', countedTags(input.tags)),
    metadata,
    url: text('url', input.url),
    userId: text('user_id', input.user_id),
    notify: input.notify ?? false,
    createdAtMicros,
  };
}

import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength } from '../../lib/text.ts';
import { storable } from '../profiles/userInput.ts';
import type { GroupProperties } from './queries.ts';

const MAX_GROUP_ID = 255;
const MAX_KEY = 100;
const MAX_STRING_VALUE = 1000;
const MAX_GROUP_PROPERTIES = 100;

/** A property update: `null` removes a key. */
type GroupPropertyUpdate = Record<string, string | number | boolean | null>;

export function requireGroupId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new InvalidInput('group_id is required: a non-empty string');
  if (codePointLength(value) > MAX_GROUP_ID || !storable(value)) {
    throw new InvalidInput(`group_id must be 1-${MAX_GROUP_ID} characters of text`);
  }
  return value;
}

/** A group id named in a path: one no group can have is simply not found. */
export const groupIdCanExist = (value: string) => value !== '' && codePointLength(value) <= MAX_GROUP_ID;

function checkProperty(key: string, value: unknown): void {
  if (codePointLength(key) < 1 || codePointLength(key) > MAX_KEY || !storable(key)) {
    throw new InvalidInput(`property keys must be 1-${MAX_KEY} characters: ${JSON.stringify(key.slice(0, 120))} is not`);
  }
  if (key !== key.toLowerCase()) throw new InvalidInput(`property keys must be lower case: ${JSON.stringify(key)} is not`);
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidInput(`property "${key}" must be a finite number`);
    return;
  }
  if (typeof value === 'string') {
    if (codePointLength(value) > MAX_STRING_VALUE) throw new InvalidInput(`property "${key}" is longer than ${MAX_STRING_VALUE} characters`);
    if (!storable(value)) throw new InvalidInput('properties must not contain NUL characters or lone surrogates');
    return;
  }
  throw new InvalidInput(`properties must be a flat object: "${key}" is not a string, number, boolean or null`);
}

/** `properties` of a group call, or undefined when absent (`null` is as absent). */
export function readPropertyUpdate(value: unknown): GroupPropertyUpdate | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidInput('properties must be a flat object');
  const update = value as Record<string, unknown>;
  if (Object.keys(update).length > MAX_GROUP_PROPERTIES) throw new InvalidInput(`a group holds at most ${MAX_GROUP_PROPERTIES} properties`);
  for (const [key, property] of Object.entries(update)) checkProperty(key, property);
  return update as GroupPropertyUpdate;
}

/** A key set to null is removed, other keys are replaced, absent keys are kept (as identify merges). */
export function mergeGroupProperties(stored: GroupProperties, update: GroupPropertyUpdate): GroupProperties {
  const merged: GroupProperties = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > MAX_GROUP_PROPERTIES) throw new InvalidInput(`a group holds at most ${MAX_GROUP_PROPERTIES} properties`);
  return merged;
}

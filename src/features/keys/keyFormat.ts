import { randomAlphanumeric } from '../../lib/ids.ts';

/** `ev_` + five lowercase-alphanumeric segments of 8-4-4-4-12, hyphen-joined (spec). */
export const API_KEY_PATTERN = /^ev_[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}$/;

export const DISPLAY_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `ev_${[8, 4, 4, 4, 12].map(randomAlphanumeric).join('-')}`;
}

import type { Channel } from './channel.ts';
import { googlechat } from './googlechat.ts';
import { gotify } from './gotify.ts';
import { matrix } from './matrix.ts';
import { ntfy } from './ntfy.ts';
import { pushover } from './pushover.ts';
import { teams } from './teams.ts';
import { telegram } from './telegram.ts';

/** The services of extensions.md "Channels", by their `format`. */
export const CHANNELS = { telegram, ntfy, pushover, teams, googlechat, matrix, gotify } as const satisfies Record<string, Channel>;

export type ChannelFormat = keyof typeof CHANNELS;

export function isChannelFormat(format: string): format is ChannelFormat {
  return Object.hasOwn(CHANNELS, format);
}

/**
 * What a service said when it refused an attempt, from its JSON answer: Telegram's
 * `description`, Pushover's `errors`, Matrix's `error`, Gotify's `errorDescription`, or a
 * `message`. Null when the answer says nothing readable.
 */
export function serviceAnswer(response: string | null): string | null {
  if (!response) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const answer = parsed as Record<string, unknown>;
  const pick = [answer.description, answer.errorDescription, answer.error, answer.message].find((value) => typeof value === 'string');
  if (typeof pick === 'string') return pick.slice(0, 300);
  if (Array.isArray(answer.errors))
    return (
      answer.errors
        .filter((value) => typeof value === 'string')
        .join('; ')
        .slice(0, 300) || null
    );
  return null;
}

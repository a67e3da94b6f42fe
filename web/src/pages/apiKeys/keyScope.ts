// The scope of an API key in words, and the browser origins a person types, read the way the
// server reads them (src/features/keys/keyScope.ts), so most mistakes are caught before sending.
import type { ApiKey, Project } from '../../types.ts';

export type KeyAccess = ApiKey['access'];

export const ACCESS_CHOICES: ReadonlyArray<{ value: KeyAccess; label: string; hint: string }> = [
  { value: 'full', label: 'Full', hint: 'Everything the API offers: read, write, manage projects and hooks.' },
  { value: 'ingest', label: 'Ingest', hint: 'Send events, identify users and set insights; nothing else. Can be used from web pages.' },
  { value: 'read', label: 'Read', hint: 'GET routes only: read events, users, insights and charts.' },
];

export const accessLabel = (access: KeyAccess) => ACCESS_CHOICES.find((choice) => choice.value === access)?.label ?? access;

const MAX_ORIGINS = 20;
/** Scheme, host and optional port, nothing else: what a browser sends in its Origin header. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s]+$/i;

/** A browser origin as browsers write it (lower-case host, no default port), or null. */
function normalizedOrigin(typed: string): string | null {
  // "http://localhost:5173/" is what an address bar shows: its one trailing slash is no path.
  const raw = typed.replace(/(?<=^https?:\/\/[^/]+)\/$/i, '');
  if (!ORIGIN_SHAPE.test(raw)) return null;
  try {
    const origin = new URL(raw).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The origins of the text field, one a line (blank lines ignored): null for none, or the error
 * the server would answer, in its words.
 */
export function readOrigins(text: string): { origins: string[] | null } | { error: string } {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return { origins: null };
  if (lines.length > MAX_ORIGINS) return { error: `origins must hold 1 to ${MAX_ORIGINS} browser origins` };
  const origins: string[] = [];
  for (const line of lines) {
    const origin = normalizedOrigin(line);
    if (!origin) return { error: `${JSON.stringify(line)} is not a browser origin: scheme, host and optional port, like https://app.example.com` };
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { origins };
}

/** The projects a key is limited to, by name; an id no longer listed is a project deleted since. */
export function projectNames(ids: string[] | null, projects: Project[] | null): string {
  if (ids === null) return 'Every project';
  return ids.map((id) => projects?.find((project) => project.id === id)?.name ?? 'a deleted project').join(', ');
}

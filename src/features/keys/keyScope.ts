import type { Ctx } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import type { KeyAccess } from '../../ports.ts';
import { requireProject } from '../projects/requireProject.ts';

export interface KeyScopeInput {
  projects?: string[] | null;
  access?: KeyAccess;
  origins?: string[] | null;
}

export interface KeyScope {
  access: KeyAccess;
  projects: string[] | null;
  origins: string[] | null;
}

const MAX_ORIGINS = 20;
/** Scheme, host and optional port, nothing else: what a browser sends in its Origin header. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s]+$/i;

/** A browser origin as browsers write it (lower-case host, no default port), or null. */
function normalizedOrigin(raw: string): string | null {
  if (!ORIGIN_SHAPE.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * A key's scope from a create request (extensions.md, "Scoped API keys"): the defaults are what
 * every key could do before (every project, full access); each project must be one of the
 * organization's (another's is not found, as everywhere); origins only for ingest keys.
 */
export async function checkKeyScope(ctx: Ctx, input: KeyScopeInput): Promise<KeyScope> {
  const access = input.access ?? 'full';
  let projects: string[] | null = null;
  if (input.projects !== undefined && input.projects !== null) {
    if (input.projects.length === 0) throw new InvalidInput('projects must be null (every project) or a non-empty array of project ids');
    projects = [...new Set(input.projects)];
    for (const projectId of projects) await requireProject(ctx, projectId);
  }
  let origins: string[] | null = null;
  if (input.origins !== undefined && input.origins !== null) {
    if (access !== 'ingest') throw new InvalidInput('origins are for ingest keys only: set access to "ingest"');
    if (input.origins.length < 1 || input.origins.length > MAX_ORIGINS) throw new InvalidInput(`origins must hold 1 to ${MAX_ORIGINS} browser origins`);
    origins = [];
    for (const raw of input.origins) {
      const origin = normalizedOrigin(raw);
      if (!origin) throw new InvalidInput(`${JSON.stringify(raw)} is not a browser origin: scheme, host and optional port, like https://app.example.com`);
      if (!origins.includes(origin)) origins.push(origin);
    }
  }
  return { access, projects, origins };
}

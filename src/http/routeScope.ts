import type { FastifyRequest, RouteOptions } from 'fastify';
import type { Ctx } from '../context.ts';
import { Forbidden, NotFound, RateLimited } from '../lib/errors.ts';
import type { KeyPrincipal } from '../ports.ts';

/**
 * What a route does, for the scopes of API keys (extensions.md, "Scoped API keys"). Every
 * authenticated route declares it with `config: { scope }`; the hooks below are the one place
 * that refuses a key what its scope does not allow, before the handler runs. A route that
 * declares nothing is refused to every limited key, so a route added later cannot forget.
 */
export interface RouteScope {
  /**
   * `read`: a GET that changes nothing (read keys may use it); `ingest`: creates events, users or
   * insights (ingest keys may use it); `write`: anything else (full keys only).
   */
  access: 'read' | 'ingest' | 'write';
  /** Where the project whose records the route touches comes from. */
  project: ProjectSource;
  /**
   * The route writes events: a browser key's are counted against its per-address limit, one per
   * request, or as many as the function reads from the validated body (a batch's items).
   */
  writesEvents?: boolean | ((body: unknown) => number);
  /**
   * What a browser key (an ingest key with origins, published in web pages) may do here besides
   * writing events: `counted`, allowed and counted against its per-address limit like an event
   * (identify); `refused`, 403 and no CORS preflight (setting an insight: a page may only add to
   * a counter). Unset: allowed, uncounted (decision 200).
   */
  browserKeys?: 'counted' | 'refused';
}

type Lookup = (ctx: Ctx, request: { params: Record<string, string>; query: Record<string, unknown> }) => Promise<string | undefined>;

type ProjectSource =
  /** The organization as a whole (creating projects, importing, members): refused (403) to keys limited to some projects. */
  | 'organization'
  /** Nothing of any project (the organization's name and usage, the push public key). */
  | 'none'
  /** Lists the organization's projects; the verb keeps to `ctx.projects` (GET /api/projects, the export). */
  | 'listing'
  /**
   * Each item of the body names its own project (POST /api/events/batch): the verb checks each
   * against `ctx.projects`, so that a refusal can say which item.
   */
  | 'items'
  /** A project id (or, with `resolve`, a reference such as LogSnag's id-or-name) in the path, query or body. */
  | { in: 'params' | 'query' | 'body'; name: string; resolve?: (ctx: Ctx, reference: string) => Promise<string> }
  /** The project of the record the path names (an event, a hook): `of` finds it, undefined when there is none. */
  | { of: Lookup; what: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs of an API key's scope (http/routeScope.ts). */
    scope?: RouteScope;
  }
}

/** Shorthands for the common declarations. */
export const projectIn = (where: 'params' | 'query' | 'body', name = where === 'params' ? 'projectId' : 'project') => ({ in: where, name }) as const;

/**
 * Checked when a route is registered, so a declaration that would let a read key write cannot
 * start: `read` only on GET, `ingest` only on POST and PATCH, a path parameter that exists.
 */
export function checkScopeDeclaration(route: RouteOptions): void {
  const scope = route.config?.scope;
  if (!scope) return;
  const methods = [route.method].flat();
  const label = `${methods.join(',')} ${route.url}`;
  if (scope.access === 'read' && methods.some((m) => m !== 'GET' && m !== 'HEAD')) throw new Error(`${label}: only a GET route may declare read access`);
  if (scope.access === 'ingest' && methods.some((m) => m !== 'POST' && m !== 'PATCH')) throw new Error(`${label}: ingest access is for POST and PATCH routes`);
  const source = scope.project;
  if (typeof source === 'object' && 'in' in source && source.in === 'params' && !route.url.includes(`:${source.name}`)) {
    throw new Error(`${label}: the path has no parameter :${source.name}`);
  }
}

const isLimited = (key: KeyPrincipal) => key.access !== 'full' || key.projects !== null;

/** The access check, before the body is read: 403 when the key may not use the route at all. */
export function refuseAccess(key: KeyPrincipal, scope: RouteScope | undefined): void {
  if (!isLimited(key)) return;
  if (!scope) throw new Forbidden('This API key is limited to some projects or actions, and this route is open to keys without limits only');
  if (key.access === 'read' && scope.access !== 'read') throw new Forbidden('This API key may only read (GET routes)');
  if (key.access === 'ingest' && scope.access !== 'ingest') throw new Forbidden('This API key may only send events, users and insights');
  if (key.origins !== null && scope.browserKeys === 'refused') throw new Forbidden('A browser key may only add to insight counters ($inc), not set them');
  if (key.projects !== null && scope.project === 'organization') {
    throw new Forbidden('This API key is limited to some projects; this action spans the whole organization');
  }
}

function namedValue(request: FastifyRequest, where: 'params' | 'query' | 'body', name: string): unknown {
  const holder = request[where] as Record<string, unknown> | undefined | null;
  return holder && typeof holder === 'object' ? holder[name] : undefined;
}

/**
 * The project check, after validation: a project the key is not limited to answers as another
 * organization's would (404), whatever names it.
 */
export async function refuseOtherProjects(request: FastifyRequest, key: KeyPrincipal, scope: RouteScope): Promise<void> {
  const allowed = key.projects;
  if (allowed === null) return;
  const source = scope.project;
  if (typeof source !== 'object') return;
  let projectId: string | undefined;
  if ('in' in source) {
    const value = namedValue(request, source.in, source.name);
    if (typeof value !== 'string' || value === '') throw new NotFound('Project');
    projectId = source.resolve ? await source.resolve(request.ctx, value) : value;
  } else {
    const input = { params: (request.params ?? {}) as Record<string, string>, query: (request.query ?? {}) as Record<string, unknown> };
    projectId = await source.of(request.ctx, input);
    if (projectId === undefined) throw new NotFound(source.what);
  }
  if (!allowed.includes(projectId)) throw new NotFound('in' in source ? 'Project' : source.what);
}

/** Browser keys' events and identify calls: at most 60 a minute per client address, across every process. */
export async function refuseOverBrowserLimit(
  request: FastifyRequest,
  key: KeyPrincipal,
  scope: RouteScope,
  take: (organizationId: string, address: string, events: number) => Promise<number | null>,
): Promise<void> {
  if (key.origins === null || !(scope.writesEvents || scope.browserKeys === 'counted')) return;
  const events = typeof scope.writesEvents === 'function' ? scope.writesEvents(request.body) : 1;
  const retryAfter = await take(key.organizationId, request.ip, events);
  if (retryAfter !== null) throw new RateLimited('Too many events from this address with a browser key; try again later', retryAfter);
}

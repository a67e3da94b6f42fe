import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Services } from '../context.ts';
import type { RouteScope } from './routeScope.ts';

/**
 * The application's Fastify type and its augmentations, apart from app.ts so that route files
 * can name it without importing the application root (which imports them).
 */
export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  /** Left out of /api/openapi.json on purpose (`schema.hide`). */
  hidden: boolean;
  /** What the route needs of an API key's scope; undefined: open to keys without limits only. */
  scope: RouteScope | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
    /** For public routes (sign-in, setup), which have no request.ctx. */
    services: Services;
  }
}

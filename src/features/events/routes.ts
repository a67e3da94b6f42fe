import type { Ctx } from '../../context.ts';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { IdempotencyHeaders } from '../idempotency/schemas.ts';
import { withIdempotency } from '../idempotency/withIdempotency.ts';
import { createEvent } from './createEvent.ts';
import { deleteEvent } from './deleteEvent.ts';
import { getEvent } from './getEvent.ts';
import { listCategories } from './listCategories.ts';
import { listEvents } from './listEvents.ts';
import {
  CategoriesQuery,
  CategoryCount,
  CreateEventBody,
  Event,
  EventIdParams,
  EventPage,
  FavoriteResult,
  ListEventsQuery,
} from './schemas.ts';
import { toggleFavorite } from './toggleFavorite.ts';
import { projectIn } from '../../http/routeScope.ts';
import { eventProject } from './eventProject.ts';

/** The project of the event a path names, for keys limited to some projects (http/routeScope.ts). */
const ofEvent = { of: (ctx: Ctx, { params }: { params: Record<string, string> }) => eventProject({ ctx, input: params }), what: 'Event' };

export default function eventRoutes(app: App): void {
  app.post(
    '/api/events',
    { config: { scope: { access: 'ingest', project: projectIn('body'), writesEvents: true } },
      schema: {
        operationId: 'createEvent',
        summary: 'Create an event',
        tags: ['events'],
        headers: IdempotencyHeaders,
        body: CreateEventBody,
        response: { 201: Event, ...errors(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { ctx, body } = request;
      const created = await withIdempotency({ ctx, route: 'POST /api/events', key: request.headers['idempotency-key'], body }, async () => ({
        status: 201,
        body: await createEvent({ ctx, input: body }),
      }));
      return reply.status(created.status as 201).send(created.body);
    },
  );

  app.get(
    '/api/events',
    { config: { scope: { access: 'read', project: projectIn('query') } }, schema: { operationId: 'listEvents', summary: 'List events, newest first (keyset pages)', tags: ['events'], querystring: ListEventsQuery, response: { 200: EventPage, ...errors(400, 401, 404) } } },
    async (request) => listEvents({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/api/events/:eventId',
    { config: { scope: { access: 'read', project: ofEvent } }, schema: { operationId: 'getEvent', summary: 'One event by id', tags: ['events'], params: EventIdParams, response: { 200: Event, ...errors(400, 401, 404) } } },
    async (request) => getEvent({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/events/:eventId/delete',
    { config: { scope: { access: 'write', project: ofEvent } }, schema: { operationId: 'deleteEvent', summary: 'Delete an event', tags: ['events'], params: EventIdParams, response: { 200: Deleted(Type.Integer()), ...errors(400, 401, 404) } } },
    async (request) => deleteEvent({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/events/:eventId/favorite',
    { config: { scope: { access: 'write', project: ofEvent } }, schema: { operationId: 'toggleFavorite', summary: "Flip an event's favorite mark", tags: ['events'], params: EventIdParams, response: { 200: FavoriteResult, ...errors(400, 401, 404) } } },
    async (request) => toggleFavorite({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/categories',
    { config: { scope: { access: 'read', project: projectIn('query') } }, schema: { operationId: 'listCategories', summary: "Every category of a project with its event count", tags: ['events'], querystring: CategoriesQuery, response: { 200: Type.Array(CategoryCount), ...errors(401, 404) } } },
    async (request) => listCategories({ ctx: request.ctx, input: request.query }),
  );
}

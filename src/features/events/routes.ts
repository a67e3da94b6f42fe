import type { Ctx } from '../../context.ts';
import { type TSchema, Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import type { App } from '../../http/app.ts';
import { Deleted, errors, itemErrors } from '../../http/schemas.ts';
import { IdempotencyHeaders } from '../idempotency/schemas.ts';
import { withIdempotency } from '../idempotency/withIdempotency.ts';
import { createEvent } from './createEvent.ts';
import { createEvents } from './createEvents.ts';
import { deleteEvent } from './deleteEvent.ts';
import { getEvent } from './getEvent.ts';
import { listCategories } from './listCategories.ts';
import { listEvents } from './listEvents.ts';
import {
  BatchCreated,
  BatchEnvelope,
  CategoriesQuery,
  CreateBatchBody,
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

/** A batch's whole body (extensions.md, "Batch ingestion"); over it, 413 as every size limit answers. */
const MAX_BATCH_BODY_BYTES = 5 * 1024 * 1024;

/** The options of the application's validator (src/app.ts). */
const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false, useDefaults: true, strict: false });

/**
 * The batch route checks its body's envelope only (BatchEnvelope), while the OpenAPI document
 * shows the items' schema: the verb checks each item, so that a refusal can name it.
 */
const batchValidator = ({ schema, httpPart }: FastifyRouteSchemaDef<unknown>) => ajv.compile(httpPart === 'body' ? BatchEnvelope : (schema as TSchema));

/** A batch's events, each counted against a browser key's per-address limit. */
const batchSize = (body: unknown) => (body as { events: unknown[] }).events.length;

export default function eventRoutes(app: App): void {
  app.post(
    '/api/events/batch',
    {
      bodyLimit: MAX_BATCH_BODY_BYTES,
      config: { batchItems: 'events', scope: { access: 'ingest', project: 'items', writesEvents: batchSize } },
      validatorCompiler: batchValidator,
      schema: {
        operationId: 'createEvents',
        summary: 'Create 1-1,000 events in one request, all or nothing',
        description: 'A refused item answers `{error, index}`, `index` being the first refused item (from 0); nothing is written.',
        tags: ['events'],
        headers: IdempotencyHeaders,
        body: CreateBatchBody,
        response: { 201: BatchCreated, ...itemErrors(400, 401, 404, 409, 413, 429, 507) },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      const body = request.body as { events: unknown[] };
      const route = 'POST /api/events/batch';
      const created = await withIdempotency({ ctx, route, key: request.headers['idempotency-key'], body }, async () => ({
        status: 201,
        body: { events: await createEvents({ ctx, input: body }) },
      }));
      return reply.status(created.status as 201).send(created.body);
    },
  );

  app.post(
    '/api/events',
    {
      config: { scope: { access: 'ingest', project: projectIn('body'), writesEvents: true } },
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
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        operationId: 'listEvents',
        summary: 'List events, newest first (keyset pages)',
        tags: ['events'],
        querystring: ListEventsQuery,
        response: { 200: EventPage, ...errors(400, 401, 404) },
      },
    },
    async (request) => listEvents({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/api/events/:eventId',
    {
      config: { scope: { access: 'read', project: ofEvent } },
      schema: {
        operationId: 'getEvent',
        summary: 'One event by id',
        tags: ['events'],
        params: EventIdParams,
        response: { 200: Event, ...errors(400, 401, 404) },
      },
    },
    async (request) => getEvent({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/events/:eventId/delete',
    {
      config: { scope: { access: 'write', project: ofEvent } },
      schema: {
        operationId: 'deleteEvent',
        summary: 'Delete an event',
        tags: ['events'],
        params: EventIdParams,
        response: { 200: Deleted(Type.Integer()), ...errors(400, 401, 404) },
      },
    },
    async (request) => deleteEvent({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/events/:eventId/favorite',
    {
      config: { scope: { access: 'write', project: ofEvent } },
      schema: {
        operationId: 'toggleFavorite',
        summary: "Flip an event's favorite mark",
        tags: ['events'],
        params: EventIdParams,
        response: { 200: FavoriteResult, ...errors(400, 401, 404) },
      },
    },
    async (request) => toggleFavorite({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/categories',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        operationId: 'listCategories',
        summary: 'Every category of a project with its event count',
        tags: ['events'],
        querystring: CategoriesQuery,
        response: { 200: Type.Array(CategoryCount), ...errors(401, 404) },
      },
    },
    async (request) => listCategories({ ctx: request.ctx, input: request.query }),
  );
}

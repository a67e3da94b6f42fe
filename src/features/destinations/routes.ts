import type { Ctx } from '../../context.ts';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { createDestination } from './createDestination.ts';
import { deleteDestination } from './deleteDestination.ts';
import { destinationHealth } from './destinationHealth.ts';
import { listDeliveries } from './listDeliveries.ts';
import { listDestinations } from './listDestinations.ts';
import { replayDelivery } from './replayDelivery.ts';
import { replayFailed } from './replayFailed.ts';
import { rotateSecret } from './rotateSecret.ts';
import {
  CreateDestinationBody,
  DeliveriesQuery,
  DeliveryPage,
  DeliveryParams,
  Destination,
  DestinationIdParams,
  Health,
  ProjectIdParams,
  ReplayFailedBody,
  ReplayFailedResult,
  Replayed,
  TestResult,
  UpdateDestinationBody,
} from './schemas.ts';
import { setDestinationEnabled } from './setDestinationEnabled.ts';
import { testDestination } from './testDestination.ts';
import { updateDestination } from './updateDestination.ts';
import { projectIn } from '../../http/routeScope.ts';
import { destinationProject } from './destinationProject.ts';

const tags = ['outgoing webhooks'];

/** The project of the destination a path names, for keys limited to some projects (http/routeScope.ts). */
const ofDestination = { of: (ctx: Ctx, { params }: { params: Record<string, string> }) => destinationProject({ ctx, input: params }), what: 'Destination' };

export default function destinationRoutes(app: App) {
  app.get(
    '/api/projects/:projectId/destinations',
    {
      config: { scope: { access: 'read', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'listDestinations',
        summary: "A project's outgoing webhook destinations",
        params: ProjectIdParams,
        response: { 200: Type.Array(Destination), ...errors(401, 404) },
      },
    },
    async (request) => listDestinations({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/projects/:projectId/destinations',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'createDestination',
        summary: "Create a destination: a URL that receives the project's notify events",
        params: ProjectIdParams,
        body: CreateDestinationBody,
        response: { 201: Destination, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createDestination({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } })),
  );

  for (const [action, enabled, summary] of [
    ['enable', true, 'Switch a destination on; clears an automatic disable and its run of failures'],
    ['disable', false, 'Switch a destination off: it gets no new deliveries'],
  ] as const) {
    app.post(
      `/api/destinations/:destinationId/${action}`,
      {
        config: { scope: { access: 'write', project: ofDestination } },
        schema: { tags, operationId: `${action}Destination`, summary, params: DestinationIdParams, response: { 200: Destination, ...errors(401, 404) } },
      },
      async (request) => setDestinationEnabled({ ctx: request.ctx, input: { destinationId: request.params.destinationId, enabled } }),
    );
  }

  app.post(
    '/api/destinations/:destinationId/rotate-secret',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'rotateDestinationSecret',
        summary: 'Replace the signing secret; queued deliveries are signed with the new one',
        params: DestinationIdParams,
        response: { 200: Destination, ...errors(400, 401, 404) },
      },
    },
    async (request) => rotateSecret({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/destinations/:destinationId/test',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'testDestination',
        summary: 'Send a sample event now, once, and answer with the outcome (at most 10 an hour per destination, then 429 with Retry-After)',
        params: DestinationIdParams,
        response: { 200: TestResult, ...errors(401, 404, 429) },
      },
    },
    async (request) => testDestination({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/destinations/:destinationId/delete',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'deleteDestination',
        summary: 'Delete a destination',
        params: DestinationIdParams,
        response: { 200: Deleted(Type.String()), ...errors(401, 404) },
      },
    },
    async (request) => deleteDestination({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/destinations/:destinationId/deliveries',
    {
      config: { scope: { access: 'read', project: ofDestination } },
      schema: {
        tags,
        operationId: 'listDeliveries',
        summary: "A destination's attempt log, newest delivery first (keyset pages)",
        params: DestinationIdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryPage, ...errors(401, 404) },
      },
    },
    async (request) => listDeliveries({ ctx: request.ctx, input: { ...request.params, ...request.query } }),
  );

  app.post(
    '/api/destinations/:destinationId/deliveries/:deliveryId/replay',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'replayDelivery',
        summary: 'Queue a delivery again with its original body and webhook-id',
        params: DeliveryParams,
        response: { 200: Replayed, ...errors(400, 401, 404) },
      },
    },
    async (request) => replayDelivery({ ctx: request.ctx, input: request.params }),
  );

  app.patch(
    '/api/destinations/:destinationId',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'updateDestination',
        summary: 'Change a destination: name, URL (checked by the address guard) or category filter',
        params: DestinationIdParams,
        body: UpdateDestinationBody,
        response: { 200: Destination, ...errors(400, 401, 404) },
      },
    },
    async (request) => updateDestination({ ctx: request.ctx, input: { ...request.body, destinationId: request.params.destinationId } }),
  );

  app.post(
    '/api/destinations/:destinationId/replay-failed',
    {
      config: { scope: { access: 'write', project: ofDestination } },
      schema: {
        tags,
        operationId: 'replayFailedDeliveries',
        summary: 'Deliver again every event whose latest delivery since `since` failed',
        params: DestinationIdParams,
        body: ReplayFailedBody,
        response: { 200: ReplayFailedResult, ...errors(400, 401, 404) },
      },
    },
    async (request) => replayFailed({ ctx: request.ctx, input: { destinationId: request.params.destinationId, since: request.body.since } }),
  );

  app.get(
    '/api/destinations/:destinationId/health',
    {
      config: { scope: { access: 'read', project: ofDestination } },
      schema: {
        tags,
        operationId: 'getDestinationHealth',
        summary: 'Success rate of the latest 50 finished deliveries (the Settings row health line)',
        params: DestinationIdParams,
        response: { 200: Health, ...errors(401, 404) },
      },
    },
    async (request) => destinationHealth({ ctx: request.ctx, input: request.params }),
  );
}

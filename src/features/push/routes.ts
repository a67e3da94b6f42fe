import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { getVapidPublicKey } from './getVapidPublicKey.ts';
import { ProjectIdParams, SubscribeBody, Subscribed, UnsubscribeBody, Unsubscribed, VapidPublicKey } from './schemas.ts';
import { subscribePush } from './subscribePush.ts';
import { unsubscribePush } from './unsubscribePush.ts';
import { projectIn } from '../../http/routeScope.ts';

const tags = ['push notifications'];

export default function pushRoutes(app: App) {
  app.get(
    '/api/push/vapid-public-key',
    {
      config: { scope: { access: 'read', project: 'none' } },
      schema: {
        tags,
        operationId: 'getVapidPublicKey',
        summary: "The server's VAPID public key, for a browser's push subscription",
        response: { 200: VapidPublicKey, ...errors(401) },
      },
    },
    async (request) => getVapidPublicKey({ ctx: request.ctx, input: undefined }),
  );

  app.post(
    '/api/projects/:projectId/push-subscriptions',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'subscribePush',
        summary: "Save the signed-in person's browser push subscription for a project",
        security: [{ session: [] }],
        params: ProjectIdParams,
        body: SubscribeBody,
        response: { 201: Subscribed, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await subscribePush({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } })),
  );

  app.post(
    '/api/push-subscriptions/delete',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        operationId: 'unsubscribePush',
        summary: 'Forget a browser push subscription for every project',
        body: UnsubscribeBody,
        response: { 200: Unsubscribed, ...errors(400, 401) },
      },
    },
    async (request) => unsubscribePush({ ctx: request.ctx, input: request.body }),
  );
}

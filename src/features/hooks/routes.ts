import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { createHook } from './createHook.ts';
import { deleteHook } from './deleteHook.ts';
import incomingHookRoute from './incomingRoute.ts';
import { listHooks } from './listHooks.ts';
import { CreateHookBody, Hook, HookIdParams, ProjectIdParams } from './schemas.ts';
import { setHookEnabled } from './setHookEnabled.ts';

const tags = ['incoming hooks'];

export default async function hookRoutes(app: App) {
  app.get(
    '/api/projects/:projectId/hooks',
    { schema: { tags, params: ProjectIdParams, response: { 200: Type.Array(Hook), ...errors(401, 404) } } },
    async (request) => listHooks({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/projects/:projectId/hooks',
    { schema: { tags, params: ProjectIdParams, body: CreateHookBody, response: { 201: Hook, ...errors(400, 401, 404) } } },
    async (request, reply) =>
      reply.status(201).send(await createHook({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } })),
  );

  for (const [action, enabled] of [['pause', false], ['resume', true]] as const) {
    app.post(
      `/api/hooks/:hookId/${action}`,
      { schema: { tags, params: HookIdParams, response: { 200: Hook, ...errors(401, 404) } } },
      async (request) => setHookEnabled({ ctx: request.ctx, input: { hookId: request.params.hookId, enabled } }),
    );
  }

  app.post(
    '/api/hooks/:hookId/delete',
    { schema: { tags, params: HookIdParams, response: { 200: Deleted(Type.String()), ...errors(401, 404) } } },
    async (request) => deleteHook({ ctx: request.ctx, input: request.params }),
  );

  await app.register(incomingHookRoute);
}

import type { Ctx } from '../../context.ts';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { createHook } from './createHook.ts';
import { deleteHook } from './deleteHook.ts';
import incomingHookRoute from './incomingRoute.ts';
import { listHooks } from './listHooks.ts';
import { CreateHookBody, Hook, HookIdParams, ProjectIdParams, UpdateHookBody } from './schemas.ts';
import { setHookEnabled } from './setHookEnabled.ts';
import { updateHook } from './updateHook.ts';
import { projectIn } from '../../http/routeScope.ts';
import { hookProject } from './hookProject.ts';

const tags = ['incoming hooks'];

/** The project of the hook a path names, for keys limited to some projects (http/routeScope.ts). */
const ofHook = { of: (ctx: Ctx, { params }: { params: Record<string, string> }) => hookProject({ ctx, input: params }), what: 'Hook' };

export default async function hookRoutes(app: App) {
  app.get(
    '/api/projects/:projectId/hooks',
    {
      config: { scope: { access: 'read', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'listHooks',
        summary: "A project's incoming hooks",
        params: ProjectIdParams,
        response: { 200: Type.Array(Hook), ...errors(401, 404) },
      },
    },
    async (request) => listHooks({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/projects/:projectId/hooks',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'createHook',
        summary: 'Create an incoming hook: a URL whose token is its only credential',
        params: ProjectIdParams,
        body: CreateHookBody,
        response: { 201: Hook, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createHook({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } })),
  );

  for (const [action, enabled, summary] of [
    ['pause', false, 'Pause an incoming hook: its URL answers like an unknown one'],
    ['resume', true, 'Resume a paused incoming hook'],
  ] as const) {
    app.post(
      `/api/hooks/:hookId/${action}`,
      {
        config: { scope: { access: 'write', project: ofHook } },
        schema: { tags, operationId: `${action}Hook`, summary, params: HookIdParams, response: { 200: Hook, ...errors(401, 404) } },
      },
      async (request) => setHookEnabled({ ctx: request.ctx, input: { hookId: request.params.hookId, enabled } }),
    );
  }

  app.patch(
    '/api/hooks/:hookId',
    {
      config: { scope: { access: 'write', project: ofHook } },
      schema: {
        tags,
        operationId: 'updateHook',
        summary: 'Rename an incoming hook, or change its default category or template; its URL stays the same',
        params: HookIdParams,
        body: UpdateHookBody,
        response: { 200: Hook, ...errors(400, 401, 404) },
      },
    },
    async (request) => updateHook({ ctx: request.ctx, input: { ...request.body, hookId: request.params.hookId } }),
  );

  app.post(
    '/api/hooks/:hookId/delete',
    {
      config: { scope: { access: 'write', project: ofHook } },
      schema: {
        tags,
        operationId: 'deleteHook',
        summary: 'Delete an incoming hook',
        params: HookIdParams,
        response: { 200: Deleted(Type.String()), ...errors(401, 404) },
      },
    },
    async (request) => deleteHook({ ctx: request.ctx, input: request.params }),
  );

  await app.register(incomingHookRoute);
}

import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { createProject } from './createProject.ts';
import { listProjects } from './listProjects.ts';
import { CreateProjectBody, CreatedProject, Project } from './schemas.ts';

export default async function projectRoutes(app: App) {
  app.get(
    '/api/projects',
    { schema: { tags: ['projects'], response: { 200: Type.Array(Project), ...errors(401) } } },
    async (request) => listProjects({ ctx: request.ctx, input: undefined }),
  );

  app.post(
    '/api/projects',
    { schema: { tags: ['projects'], body: CreateProjectBody, response: { 201: CreatedProject, ...errors(400, 401) } } },
    async (request, reply) => reply.status(201).send(await createProject({ ctx: request.ctx, input: request.body })),
  );
}

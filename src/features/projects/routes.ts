import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { createProject } from './createProject.ts';
import { deleteProject } from './deleteProject.ts';
import { listProjects } from './listProjects.ts';
import { CreateProjectBody, CreatedProject, Project, ProjectIdParams, UpdateProjectBody } from './schemas.ts';
import { updateProject } from './updateProject.ts';
import { projectIn } from '../../http/routeScope.ts';

export default function projectRoutes(app: App): void {
  app.get(
    '/api/projects',
    {
      config: { scope: { access: 'read', project: 'listing' } },
      schema: {
        tags: ['projects'],
        operationId: 'listProjects',
        summary: "The organization's projects",
        response: { 200: Type.Array(Project), ...errors(401) },
      },
    },
    async (request) => listProjects({ ctx: request.ctx, input: undefined }),
  );

  app.post(
    '/api/projects',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags: ['projects'],
        operationId: 'createProject',
        summary: 'Create a project',
        body: CreateProjectBody,
        response: { 201: CreatedProject, ...errors(400, 401) },
      },
    },
    async (request, reply) => reply.status(201).send(await createProject({ ctx: request.ctx, input: request.body })),
  );

  app.post(
    '/api/projects/:projectId/delete',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags: ['projects'],
        operationId: 'deleteProject',
        summary: 'Delete a project and everything in it',
        params: ProjectIdParams,
        response: { 200: Deleted(Type.String()), ...errors(401, 403, 404) },
      },
    },
    async (request) => deleteProject({ ctx: request.ctx, input: request.params }),
  );

  app.patch(
    '/api/projects/:projectId',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags: ['projects'],
        operationId: 'updateProject',
        summary: 'Rename a project or set its retention',
        params: ProjectIdParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...errors(400, 401, 404) },
      },
    },
    async (request) => updateProject({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } }),
  );
}

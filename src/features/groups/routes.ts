import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { projectIn } from '../../http/routeScope.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import { deleteGroup } from './deleteGroup.ts';
import { getGroup } from './getGroup.ts';
import { listGroups } from './listGroups.ts';
import { listUserGroups } from './listUserGroups.ts';
import { recordGroup } from './recordGroup.ts';
import { GroupBody, GroupDetail, GroupPage, GroupParams, GroupReply, ListGroupsQuery, ProjectQuery, UserGroups, UserGroupsParams } from './schemas.ts';

/** LogSnag names a project by id or exact name: a key limited to some projects is checked on the one it names. */
const byReference = { in: 'body', name: 'project', resolve: resolveProjectReference } as const;
const tags = ['groups'];

/** Groups (accounts) of the application's users (extensions.md "Groups (accounts)"). */
export default function groupRoutes(app: App): void {
  app.post(
    '/api/group',
    {
      config: { scope: { access: 'ingest', project: projectIn('body') } },
      schema: {
        tags,
        operationId: 'recordGroup',
        summary: 'Create or update a group, and add a user to it',
        body: GroupBody,
        response: { 200: GroupReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => recordGroup({ ctx: request.ctx, input: { ...request.body, byName: false } }),
  );

  app.post(
    '/v1/group',
    {
      config: { scope: { access: 'ingest', project: byReference } },
      schema: {
        tags: ['logsnag'],
        // Like LogSnag's other routes: bearer API keys only (http/auth.ts), never a cookie.
        security: [{ bearer: [] }],
        operationId: 'logSnagGroup',
        summary: "Create or update a group (LogSnag's group; project by id or name)",
        body: GroupBody,
        response: { 200: GroupReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => recordGroup({ ctx: request.ctx, input: { ...request.body, byName: true } }),
  );

  app.get(
    '/api/groups',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags,
        operationId: 'listGroups',
        summary: 'Groups, most recently seen first',
        querystring: ListGroupsQuery,
        response: { 200: GroupPage, ...errors(400, 401, 404) },
      },
    },
    async (request) => listGroups({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/api/groups/:groupId',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags,
        operationId: 'getGroup',
        summary: 'One group, with its users',
        params: GroupParams,
        querystring: ProjectQuery,
        response: { 200: GroupDetail, ...errors(400, 401, 404) },
      },
    },
    async (request) => getGroup({ ctx: request.ctx, input: { project: request.query.project, groupId: request.params.groupId } }),
  );

  app.delete(
    '/api/groups/:groupId',
    {
      config: { scope: { access: 'write', project: projectIn('query') } },
      schema: {
        tags,
        operationId: 'deleteGroup',
        summary: 'Delete a group and its memberships (not its users)',
        params: GroupParams,
        querystring: ProjectQuery,
        response: { 200: Deleted(Type.String()), ...errors(400, 401, 404) },
      },
    },
    async (request) => deleteGroup({ ctx: request.ctx, input: { project: request.query.project, groupId: request.params.groupId } }),
  );

  app.get(
    '/api/users/:userId/groups',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags,
        operationId: 'listUserGroups',
        summary: 'The groups a user belongs to',
        params: UserGroupsParams,
        querystring: ProjectQuery,
        response: { 200: UserGroups, ...errors(400, 401, 404) },
      },
    },
    async (request) => listUserGroups({ ctx: request.ctx, input: { project: request.query.project, userId: request.params.userId } }),
  );
}

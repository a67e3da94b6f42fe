import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { getUser } from './getUser.ts';
import { identify } from './identify.ts';
import { listUsers } from './listUsers.ts';
import { AppUser, GetUserQuery, IdentifyBody, ListUsersQuery, Ok, UserActivity, UserPage, UserParams } from './schemas.ts';
import { userActivity } from './userActivity.ts';
import { projectIn } from '../../http/routeScope.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';

/** LogSnag names a project by id or exact name: a key limited to some projects is checked on the one it names. */
const byReference = { in: 'body', name: 'project', resolve: resolveProjectReference } as const;

/** The people of the application, by `user_id` (extensions.md "Users"). */
export default function profileRoutes(app: App): void {
  app.post(
    '/api/identify',
    {
      config: { scope: { access: 'ingest', project: projectIn('body'), browserKeys: 'counted' } },
      schema: {
        tags: ['users'],
        operationId: 'identifyUser',
        summary: "Set a user's properties",
        body: IdentifyBody,
        response: { 200: Ok, ...errors(400, 401, 404) },
      },
    },
    async (request) => identify({ ctx: request.ctx, input: { ...request.body, byName: false } }),
  );

  app.post(
    '/v1/identify',
    {
      config: { scope: { access: 'ingest', project: byReference, browserKeys: 'counted' } },
      schema: {
        tags: ['logsnag'],
        // Like LogSnag's other routes: bearer API keys only (http/auth.ts), never a cookie.
        security: [{ bearer: [] }],
        operationId: 'logSnagIdentify',
        summary: "Set a user's properties (LogSnag's identify; project by id or name)",
        body: IdentifyBody,
        response: { 200: Ok, ...errors(400, 401, 404) },
      },
    },
    async (request) => identify({ ctx: request.ctx, input: { ...request.body, byName: true } }),
  );

  app.get(
    '/api/users',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        summary: 'Users, most recently seen first',
        querystring: ListUsersQuery,
        response: { 200: UserPage, ...errors(400, 401, 404) },
      },
    },
    async (request) => listUsers({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/api/users/:userId',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags: ['users'],
        operationId: 'getUser',
        summary: 'One user',
        params: UserParams,
        querystring: GetUserQuery,
        response: { 200: AppUser, ...errors(400, 401, 404) },
      },
    },
    async (request) => getUser({ ctx: request.ctx, input: { project: request.query.project, userId: request.params.userId } }),
  );

  app.get(
    '/api/users/:userId/activity',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags: ['users'],
        operationId: 'getUserActivity',
        summary: "A user's events per day over the last 30 days",
        params: UserParams,
        querystring: GetUserQuery,
        response: { 200: UserActivity, ...errors(400, 401, 404) },
      },
    },
    async (request) => userActivity({ ctx: request.ctx, input: { project: request.query.project, userId: request.params.userId } }),
  );
}

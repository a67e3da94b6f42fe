import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { projectActivity } from './projectActivity.ts';
import { ProjectActivity } from './schemas.ts';

export default function overviewRoutes(app: App): void {
  app.get(
    '/api/projects/activity',
    {
      config: { scope: { access: 'read', project: 'listing' } },
      schema: {
        tags: ['projects'],
        operationId: 'projectActivity',
        summary: "Each project's events today and this week, a 7-day series and its last event's time",
        response: { 200: Type.Array(ProjectActivity), ...errors(401) },
      },
    },
    async (request) => projectActivity({ ctx: request.ctx, input: undefined }),
  );
}

import type { Ctx } from '../../context.ts';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { deleteInsight } from './deleteInsight.ts';
import { listInsights } from './listInsights.ts';
import { incrementInsight } from './incrementInsight.ts';
import { IncrementInsightBody, IncrementedInsight, Insight, InsightIdParams, ListInsightsQuery, UpsertInsightBody, UpsertedInsight } from './schemas.ts';
import { upsertInsight } from './upsertInsight.ts';
import { projectIn } from '../../http/routeScope.ts';
import { insightProject } from './insightProject.ts';
import { withoutValueForBrowsers } from './withoutValueForBrowsers.ts';

const tags = ['insights'];

/** The project of the insight a path names, for keys limited to some projects (http/routeScope.ts). */
const ofInsight = { of: (ctx: Ctx, { params }: { params: Record<string, string> }) => insightProject({ ctx, input: params }), what: 'Insight' };

export default function insightRoutes(app: App): void {
  app.post(
    '/api/insight',
    {
      config: { scope: { access: 'ingest', project: projectIn('body'), browserKeys: 'refused' } },
      schema: {
        operationId: 'upsertInsight',
        summary: 'Create or update an insight (not with a browser key)',
        tags,
        body: UpsertInsightBody,
        response: { 200: UpsertedInsight, ...errors(400, 401, 404) },
      },
    },
    async (request) => upsertInsight({ ctx: request.ctx, input: request.body }),
  );

  app.patch(
    '/api/insight',
    {
      config: { scope: { access: 'ingest', project: projectIn('body') } },
      schema: {
        tags,
        operationId: 'incrementInsight',
        summary: 'Add to an insight counter (a browser key is not told the new value)',
        body: IncrementInsightBody,
        response: { 200: IncrementedInsight, ...errors(400, 401, 404, 507) },
      },
    },
    async (request) => withoutValueForBrowsers(request.apiKey, await incrementInsight({ ctx: request.ctx, input: request.body })),
  );

  app.post(
    '/api/insight/:insightId/delete',
    {
      config: { scope: { access: 'write', project: ofInsight } },
      schema: {
        operationId: 'deleteInsight',
        summary: 'Delete an insight',
        tags,
        params: InsightIdParams,
        response: { 200: Deleted(Type.Integer()), ...errors(400, 401, 404) },
      },
    },
    async (request) => deleteInsight({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/insights',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        operationId: 'listInsights',
        summary: "A project's insights, oldest first",
        tags,
        querystring: ListInsightsQuery,
        response: { 200: Type.Array(Insight), ...errors(401, 404) },
      },
    },
    async (request) => listInsights({ ctx: request.ctx, input: request.query }),
  );
}

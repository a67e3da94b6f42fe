import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { deleteInsight } from './deleteInsight.ts';
import { listInsights } from './listInsights.ts';
import { incrementInsight } from './incrementInsight.ts';
import {
  IncrementInsightBody,
  IncrementedInsight,
  Insight,
  InsightIdParams,
  ListInsightsQuery,
  UpsertInsightBody,
  UpsertedInsight,
} from './schemas.ts';
import { upsertInsight } from './upsertInsight.ts';

const tags = ['insights'];

export default function insightRoutes(app: App): void {
  app.post(
    '/api/insight',
    { schema: { operationId: 'upsertInsight', summary: 'Create or update an insight', tags, body: UpsertInsightBody, response: { 200: UpsertedInsight, ...errors(400, 401, 404) } } },
    async (request) => upsertInsight({ ctx: request.ctx, input: request.body }),
  );

  app.patch(
    '/api/insight',
    {
      schema: {
        tags,
        operationId: 'incrementInsight',
        summary: 'Add to an insight counter',
        body: IncrementInsightBody,
        response: { 200: IncrementedInsight, ...errors(400, 401, 404, 507) },
      },
    },
    async (request) => incrementInsight({ ctx: request.ctx, input: request.body }),
  );

  app.post(
    '/api/insight/:insightId/delete',
    { schema: { operationId: 'deleteInsight', summary: 'Delete an insight', tags, params: InsightIdParams, response: { 200: Deleted(Type.Integer()), ...errors(400, 401, 404) } } },
    async (request) => deleteInsight({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/insights',
    { schema: { operationId: 'listInsights', summary: "A project's insights, oldest first", tags, querystring: ListInsightsQuery, response: { 200: Type.Array(Insight), ...errors(401, 404) } } },
    async (request) => listInsights({ ctx: request.ctx, input: request.query }),
  );
}

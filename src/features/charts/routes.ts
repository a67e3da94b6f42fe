import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { getCharts } from './getCharts.ts';
import { Charts, ChartsQuery } from './schemas.ts';
import { projectIn } from '../../http/routeScope.ts';

export default function chartRoutes(app: App): void {
  app.get(
    '/api/charts',
    {
      config: { scope: { access: 'read', project: projectIn('query') } },
      schema: {
        tags: ['charts'],
        operationId: 'getCharts',
        summary: 'Events per category and day over the last `days` days',
        querystring: ChartsQuery,
        response: { 200: Charts, ...errors(400, 401, 404) },
      },
    },
    // The verb answers JSON text, which Fastify sends as it is (the schema documents its shape).
    // A read-only key charts like any caller but never registers a tag key for the rollup.
    async (request, reply) => {
      const mayRegisterRollups = request.apiKey?.access !== 'read';
      return reply.type('application/json').send((await getCharts({ ctx: request.ctx, input: request.query, mayRegisterRollups })) as never);
    },
  );
}

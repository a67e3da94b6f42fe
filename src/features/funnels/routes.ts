import type { App } from '../../http/app.ts';
import { projectIn } from '../../http/routeScope.ts';
import { errors } from '../../http/schemas.ts';
import { queryFunnel } from './queryFunnel.ts';
import { FunnelBody, FunnelResult } from './schemas.ts';

/** Funnels (extensions.md, "Funnels and breakdowns"): a read, though it takes a body. */
export default function funnelRoutes(app: App): void {
  app.post(
    '/api/funnels',
    {
      // A POST, so not a read key's (extensions.md: read keys use GET routes only).
      config: { scope: { access: 'write', project: projectIn('body') } },
      schema: {
        tags: ['funnels'],
        operationId: 'queryFunnel',
        summary: 'How many users reached each step of a funnel',
        body: FunnelBody,
        response: { 200: FunnelResult, ...errors(400, 401, 404) },
      },
    },
    async (request) => queryFunnel({ ctx: request.ctx, input: request.body }),
  );
}

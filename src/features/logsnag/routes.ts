import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { Event } from '../events/schemas.ts';
import { IdempotencyHeaders } from '../idempotency/schemas.ts';
import { withIdempotency } from '../idempotency/withIdempotency.ts';
import { IncrementedInsight, UpsertedInsight } from '../insights/schemas.ts';
import { withoutValueForBrowsers } from '../insights/withoutValueForBrowsers.ts';
import { logEvent } from './logEvent.ts';
import { incrementLoggedInsight, logInsight } from './logInsight.ts';
import { LogBody, LogInsightBody, LogInsightIncrementBody } from './schemas.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';

const tags = ['logsnag'];
/** Bearer API keys only (auth.ts): LogSnag's clients send no cookie. */
const security = [{ bearer: [] }];

/** LogSnag names a project by id or exact name: a key limited to some projects is checked on the one it names. */
const byReference = { in: 'body', name: 'project', resolve: resolveProjectReference } as const;

/** LogSnag's own routes and field names, so a client moves by changing its base URL and key. */
export default function logSnagRoutes(app: App): void {
  app.post(
    '/v1/log',
    {
      config: { scope: { access: 'ingest', project: byReference, writesEvents: true } },
      schema: {
        tags,
        security,
        operationId: 'logSnagLog',
        summary: "Log an event with LogSnag's field names",
        headers: IdempotencyHeaders,
        body: LogBody,
        response: { 200: Event, ...errors(400, 401, 404, 409, 429, 507) },
      },
    },
    async (request) => {
      const { ctx, body } = request;
      const logged = await withIdempotency({ ctx, route: 'POST /v1/log', key: request.headers['idempotency-key'], body }, async () => ({
        status: 200,
        body: await logEvent({ ctx, input: body }),
      }));
      return logged.body;
    },
  );

  app.post(
    '/v1/insight',
    {
      config: { scope: { access: 'ingest', project: byReference, browserKeys: 'refused' } },
      schema: {
        tags,
        security,
        operationId: 'logSnagInsight',
        summary: "Set an insight with LogSnag's field names",
        body: LogInsightBody,
        response: { 200: UpsertedInsight, ...errors(400, 401, 404, 507) },
      },
    },
    async (request) => logInsight({ ctx: request.ctx, input: request.body }),
  );

  app.patch(
    '/v1/insight',
    {
      config: { scope: { access: 'ingest', project: byReference } },
      schema: {
        tags,
        security,
        operationId: 'logSnagIncrementInsight',
        summary: "Add to an insight counter with LogSnag's field names",
        body: LogInsightIncrementBody,
        response: { 200: IncrementedInsight, ...errors(400, 401, 404, 507) },
      },
    },
    async (request) => withoutValueForBrowsers(request.apiKey, await incrementLoggedInsight({ ctx: request.ctx, input: request.body })),
  );
}

import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { getDigest } from './getDigest.ts';
import { DigestSettings, Ok } from './schemas.ts';
import { sendDigestNow } from './sendDigestNow.ts';
import { setDigest } from './setDigest.ts';

const tags = ['digests'];
const sessionOnly = [{ session: [] }];

export default function digestRoutes(app: App): void {
  app.get(
    '/api/me/digest',
    {
      config: { scope: { access: 'read', project: 'none' } },
      schema: {
        tags,
        operationId: 'getDigest',
        summary: "The signed-in member's digest: daily, weekly or off (a dashboard session only)",
        security: sessionOnly,
        response: { 200: DigestSettings, ...errors(401, 403) },
      },
    },
    async (request) => getDigest({ ctx: request.ctx, input: undefined }),
  );

  app.put(
    '/api/me/digest',
    {
      config: { scope: { access: 'write', project: 'none' } },
      schema: {
        tags,
        operationId: 'setDigest',
        summary: "Set the signed-in member's digest (a dashboard session only)",
        security: sessionOnly,
        body: DigestSettings,
        response: { 200: DigestSettings, ...errors(400, 401, 403) },
      },
    },
    async (request) => setDigest({ ctx: request.ctx, input: request.body }),
  );

  app.post(
    '/api/me/digest/send',
    {
      config: { scope: { access: 'write', project: 'none' } },
      schema: {
        tags,
        operationId: 'sendDigestNow',
        summary: "Mail the signed-in member's digest for the period that ends now, as a preview (a dashboard session only)",
        security: sessionOnly,
        response: { 200: Ok, ...errors(400, 401, 403, 503) },
      },
    },
    async (request) => sendDigestNow({ ctx: request.ctx, input: undefined }),
  );
}

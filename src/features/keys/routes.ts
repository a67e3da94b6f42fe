import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { requireDashboardSession } from '../sessions/requireDashboardSession.ts';
import { createKey } from './createKey.ts';
import { listKeys } from './listKeys.ts';
import { revokeKey } from './revokeKey.ts';
import { CreatedKey, KeyIdParams, KeySummary, RevokedKey } from './schemas.ts';

const tags = ['api keys'];
const sessionOnly = [{ session: [] }];
// A leaked key must not be able to mint more keys or revoke the owner's.
const NEEDS_SESSION = 'Managing API keys needs a dashboard session';

export default async function keyRoutes(app: App) {
  app.get(
    '/api/keys',
    { schema: { tags, security: sessionOnly, response: { 200: Type.Array(KeySummary), ...errors(401, 403) } } },
    async (request) => {
      requireDashboardSession(request.ctx, NEEDS_SESSION);
      return listKeys({ ctx: request.ctx, input: undefined });
    },
  );

  app.post(
    '/api/keys',
    { schema: { tags, security: sessionOnly, response: { 201: CreatedKey, ...errors(401, 403) } } },
    async (request, reply) => {
      requireDashboardSession(request.ctx, NEEDS_SESSION);
      return reply.status(201).header('cache-control', 'no-store').send(await createKey({ ctx: request.ctx, input: undefined }));
    },
  );

  app.post(
    '/api/keys/:keyId/revoke',
    { schema: { tags, security: sessionOnly, params: KeyIdParams, response: { 200: RevokedKey, ...errors(400, 401, 403, 404) } } },
    async (request) => {
      requireDashboardSession(request.ctx, NEEDS_SESSION);
      return revokeKey({ ctx: request.ctx, input: request.params });
    },
  );
}

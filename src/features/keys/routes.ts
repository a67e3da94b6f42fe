import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app.ts';
import { requireOwner } from '../../http/auth.ts';
import { errors } from '../../http/schemas.ts';
import { createKey } from './createKey.ts';
import { listKeys } from './listKeys.ts';
import { revokeKey } from './revokeKey.ts';
import { CreatedKey, CreateKeyBody, KeyIdParams, KeySummary, RevokedKey } from './schemas.ts';

const tags = ['api keys'];
const sessionOnly = [{ session: [] }];
// A leaked key must not be able to mint more keys or revoke the owner's; a member may not either.
const ACTION = 'Managing API keys';

export default function keyRoutes(app: App): void {
  app.get(
    '/api/keys',
    {
      config: { scope: { access: 'read', project: 'organization' } },
      schema: {
        tags,
        operationId: 'listKeys',
        summary: "The organization's API keys, revoked ones too (owners only)",
        security: sessionOnly,
        response: { 200: Type.Array(KeySummary), ...errors(401, 403) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return listKeys({ ctx: request.ctx, input: undefined });
    },
  );

  app.post(
    '/api/keys',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        operationId: 'createKey',
        summary: 'Create an API key; the key itself is shown in this reply only (owners only)',
        security: sessionOnly,
        body: CreateKeyBody,
        response: { 201: CreatedKey, ...errors(400, 401, 403) },
      },
      // The body is optional (a key needs no name): no body at all is an empty object.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) => {
      requireOwner(request.ctx, ACTION);
      const created = await createKey({ ctx: request.ctx, input: request.body });
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.post(
    '/api/keys/:keyId/revoke',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        operationId: 'revokeKey',
        summary: 'Revoke an API key (owners only)',
        security: sessionOnly,
        params: KeyIdParams,
        response: { 200: RevokedKey, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return revokeKey({ ctx: request.ctx, input: request.params });
    },
  );
}

import { VISITOR } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { SignInThrottle } from '../sessions/signInThrottle.ts';
import { changePassword } from './changePassword.ts';
import { confirmPasswordReset } from './confirmPasswordReset.ts';
import { previewPasswordReset } from './previewPasswordReset.ts';
import { requestPasswordReset } from './requestPasswordReset.ts';
import { ChangePasswordBody, Ok, ResetConfirmBody, ResetPreview, ResetPreviewBody, ResetRequestBody } from './schemas.ts';

const tags = ['dashboard session'];
/** Asked for from the sign-in page: no credential is involved. */
const anyone = { public: true };
const noCredential: [] = [];

export default function passwordResetRoutes(app: App): void {
  const { services } = app;
  const visitor = { services, actor: VISITOR };
  // Per client address, like sign-in (each process keeps its own count).
  const requests = new SignInThrottle();
  const confirms = new SignInThrottle();
  // Wrong current passwords, per client address and per member.
  const currentPasswordGuesses = new SignInThrottle();

  app.post(
    '/api/password-reset',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary: "Mail a password reset link to a member's email; the answer is the same for any email (takes no credential)",
        security: noCredential,
        body: ResetRequestBody,
        response: { 200: Ok, ...errors(400, 429) },
      },
    },
    (request) => requestPasswordReset({ ctx: visitor, throttle: requests, input: { email: request.body.email, ip: request.ip } }),
  );

  app.post(
    '/api/password-reset/confirm',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'confirmPasswordReset',
        summary: "Set a new password with a reset link's token; ends every session of the member (takes no credential)",
        security: noCredential,
        body: ResetConfirmBody,
        response: { 200: Ok, ...errors(400, 429) },
      },
    },
    async (request) => confirmPasswordReset({ ctx: visitor, throttle: confirms, input: { ...request.body, ip: request.ip } }),
  );

  app.post(
    '/api/password-reset/preview',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'previewPasswordReset',
        summary: "The account a reset link's token is for; 400 when the link is unknown, expired or used; changes nothing (takes no credential)",
        security: noCredential,
        body: ResetPreviewBody,
        response: { 200: ResetPreview, ...errors(400) },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await previewPasswordReset({ ctx: visitor, input: request.body })),
  );

  app.post(
    '/api/me/password',
    {
      config: { scope: { access: 'write', project: 'none' } },
      schema: {
        tags,
        operationId: 'changePassword',
        summary: "Change the signed-in member's password, given the current one; ends every other session of theirs (a dashboard session only)",
        security: [{ session: [] }],
        body: ChangePasswordBody,
        response: { 200: Ok, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => changePassword({ ctx: request.ctx, throttle: currentPasswordGuesses, input: request.body }),
  );
}

import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VISITOR } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { Forbidden, InvalidInput, ServiceError } from '../../lib/errors.ts';
import { errors } from '../../http/schemas.ts';
import { setSessionCookie } from '../sessions/cookie.ts';
import { ATTEMPT_COOKIE, ATTEMPT_LIFETIME_SECONDS, openAttempt, sealAttempt } from './attemptCookie.ts';
import { OidcClient } from './oidcClient.ts';
import { sendRefusalPage } from './refusalPage.ts';
import { signInWithOidc } from './signInWithOidc.ts';

const tags = ['sessions'];
const noCredential: Array<Record<string, string[]>> = [];
const CALLBACK_PATH = '/api/oidc/callback';
const CallbackQuery = Type.Object({ code: Type.Optional(Type.String({ maxLength: 4096 })), state: Type.Optional(Type.String({ maxLength: 1024 })) }, { additionalProperties: true });

/** extensions.md, "Sign-in with OpenID Connect": both routes take no credential (the issuer vouches). */
export default function oidcRoutes(app: App): void {
  const { services } = app;
  const { config } = services;
  const oidc = config.oidc ? new OidcClient(config.oidc, `${config.baseUrl}${CALLBACK_PATH}`) : null;
  const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/api/oidc', secure: config.baseUrl.startsWith('https:') } as const;
  const requireOidc = () => {
    if (!oidc) throw new ServiceError('not_found', 'Sign-in with OpenID Connect is not set up on this server');
    return oidc;
  };
  const forget = (reply: FastifyReply) => reply.clearCookie(ATTEMPT_COOKIE, cookieOptions);

  app.get(
    '/api/oidc/start',
    { config: { public: true }, schema: { tags, summary: "Redirects to the identity provider's sign-in (authorization code flow with PKCE)", security: noCredential, response: errors(404) } },
    async (_request, reply) => {
      const { url, attempt } = await requireOidc().start();
      reply.setCookie(ATTEMPT_COOKIE, await sealAttempt(services.sql, attempt), { ...cookieOptions, maxAge: ATTEMPT_LIFETIME_SECONDS });
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      config: { public: true },
      schema: { tags, summary: 'Where the identity provider sends the browser back: checks everything, signs in, redirects to /app/', security: noCredential, querystring: CallbackQuery, response: errors(400, 403, 404) },
    },
    async (request, reply) => {
      try {
        return await callback(request, reply);
      } catch (error) {
        if (sendRefusalPage(request, reply, error)) return reply;
        throw error;
      }
    },
  );

  async function callback(request: FastifyRequest<{ Querystring: Static<typeof CallbackQuery> }>, reply: FastifyReply) {
    const client = requireOidc();
    // One attempt, one callback: the cookie goes whatever the outcome.
    forget(reply);
    if (!request.query.state || (!request.query.code && !('error' in request.query))) throw new InvalidInput('The callback needs the code and state the identity provider sends');
    const attempt = await openAttempt(services.sql, request.cookies[ATTEMPT_COOKIE]);
    if (!attempt) throw new Forbidden('This sign-in attempt is unknown or has expired; start again from the sign-in page');
    const query = request.url.slice(request.url.indexOf('?'));
    let identity;
    try {
      identity = await client.finish(new URL(`${config.baseUrl}${CALLBACK_PATH}${query}`), attempt);
    } catch (error) {
      request.log.warn({ err: error }, 'an OpenID Connect callback failed its checks');
      throw new Forbidden('The identity provider\'s answer did not pass the checks; nobody was signed in');
    }
    const opened = await signInWithOidc({ ctx: { services, actor: VISITOR, ip: request.ip }, input: identity });
    setSessionCookie(reply, config, opened.token);
    return reply.header('cache-control', 'no-store').redirect('/app/', 302);
  }
}

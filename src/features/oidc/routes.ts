import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VISITOR } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { Forbidden, InvalidInput, ServiceError } from '../../lib/errors.ts';
import { errors } from '../../http/schemas.ts';
import { SessionInfo } from '../sessions/schemas.ts';
import { setSessionCookie } from '../sessions/cookie.ts';
import { acceptInvitationChoice } from './acceptInvitationChoice.ts';
import { CHOICE_COOKIE, CHOICE_LIFETIME_SECONDS, openChoice, sealChoice } from './choiceCookie.ts';
import { listInvitationChoices } from './listInvitationChoices.ts';
import { ATTEMPT_COOKIE, ATTEMPT_LIFETIME_SECONDS, openAttempt, sealAttempt } from './attemptCookie.ts';
import { OidcClient } from './oidcClient.ts';
import { sendRefusalPage } from './refusalPage.ts';
import { signInWithOidc } from './signInWithOidc.ts';

const tags = ['sessions'];
const noCredential: Array<Record<string, string[]>> = [];
const CALLBACK_PATH = '/api/oidc/callback';
/** The dashboard page where a person invited by several organizations chooses one (decision 213). */
const CHOICE_PAGE = '/app/signin/choose';
const InvitationChoice = Type.Object({
  id: Type.String(),
  organization: Type.Object({ id: Type.String(), name: Type.String() }),
  role: Type.Union([Type.Literal('owner'), Type.Literal('member')]),
  invitedBy: Type.Union([Type.String(), Type.Null()], { description: 'The email of the member who invited, when known' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
const InvitationChoices = Type.Object({ email: Type.String(), invitations: Type.Array(InvitationChoice) });
const ChoiceParams = Type.Object({ invitationId: Type.String({ minLength: 1, maxLength: 100 }) });
const CallbackQuery = Type.Object(
  { code: Type.Optional(Type.String({ maxLength: 4096 })), state: Type.Optional(Type.String({ maxLength: 1024 })) },
  { additionalProperties: true },
);

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
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Redirects to the identity provider's sign-in (authorization code flow with PKCE)",
        security: noCredential,
        response: errors(404),
      },
    },
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
      schema: {
        tags,
        summary: 'Where the identity provider sends the browser back: checks everything, signs in, redirects to /app/',
        security: noCredential,
        querystring: CallbackQuery,
        response: errors(400, 403, 404),
      },
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
    if (!request.query.state || (!request.query.code && !('error' in request.query)))
      throw new InvalidInput('The callback needs the code and state the identity provider sends');
    const attempt = await openAttempt(services.sql, request.cookies[ATTEMPT_COOKIE]);
    if (!attempt) throw new Forbidden('This sign-in attempt is unknown or has expired; start again from the sign-in page');
    const query = request.url.slice(request.url.indexOf('?'));
    let identity;
    try {
      identity = await client.finish(new URL(`${config.baseUrl}${CALLBACK_PATH}${query}`), attempt);
    } catch (error) {
      request.log.warn({ err: error }, 'an OpenID Connect callback failed its checks');
      throw new Forbidden("The identity provider's answer did not pass the checks; nobody was signed in");
    }
    const outcome = await signInWithOidc({ ctx: { services, actor: VISITOR, ip: request.ip }, input: identity });
    if ('chooseFor' in outcome) {
      reply.setCookie(CHOICE_COOKIE, await sealChoice(services.sql, outcome.chooseFor), { ...cookieOptions, maxAge: CHOICE_LIFETIME_SECONDS });
      return reply.header('cache-control', 'no-store').redirect(CHOICE_PAGE, 302);
    }
    setSessionCookie(reply, config, outcome.opened.token);
    return reply.header('cache-control', 'no-store').redirect('/app/', 302);
  }

  // The choice among several organizations' invitations: the sealed cookie is the only credential.
  app.get(
    '/api/oidc/choices',
    {
      config: { public: true },
      schema: {
        tags,
        operationId: 'listInvitationChoices',
        summary:
          'The pending invitations of the email the identity provider vouched for, when several organizations invited it (takes the sealed choice cookie only)',
        security: noCredential,
        response: { 200: InvitationChoices, ...errors(401) },
      },
    },
    async (request, reply) => {
      const email = await openChoice(services.sql, request.cookies[CHOICE_COOKIE]);
      return reply.header('cache-control', 'no-store').send(await listInvitationChoices({ ctx: { services, actor: VISITOR }, input: { email } }));
    },
  );

  app.post(
    '/api/oidc/choices/:invitationId/accept',
    {
      config: { public: true },
      schema: {
        tags,
        operationId: 'acceptInvitationChoice',
        summary:
          'Accept the chosen invitation: joins that organization only and sets the session cookie; the other invitations stay pending (takes the sealed choice cookie only)',
        security: noCredential,
        params: ChoiceParams,
        response: { 200: SessionInfo, ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const email = await openChoice(services.sql, request.cookies[CHOICE_COOKIE]);
      const opened = await acceptInvitationChoice({
        ctx: { services, actor: VISITOR, ip: request.ip },
        input: { email, invitationId: request.params.invitationId },
      });
      reply.clearCookie(CHOICE_COOKIE, cookieOptions);
      setSessionCookie(reply, config, opened.token);
      return reply.header('cache-control', 'no-store').send(opened.info);
    },
  );
}

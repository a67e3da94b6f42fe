import type { App } from '../../http/app.ts';
import { VISITOR } from '../../context.ts';
import { errors } from '../../http/schemas.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './cookie.ts';
import { describeSession } from './describeSession.ts';
import { isSetupNeeded } from './isSetupNeeded.ts';
import { SessionInfo, SetupBody, SetupStatus, SignInBody, SignedOut } from './schemas.ts';
import { setUpInstallation } from './setUpInstallation.ts';
import { signIn } from './signIn.ts';
import { SignInThrottle } from './signInThrottle.ts';
import { CSRF_HEADER, signOut } from './signOut.ts';

const tags = ['dashboard session'];
const anyone = { public: true };
/** These answer browsers before they have a session; no credential is involved. */
const noCredential: [] = [];
const sessionOnly = [{ session: [] }];
// The bodies carry the CSRF token: never kept by a cache on the way.
const NO_STORE = 'no-store';

export default function sessionRoutes(app: App): void {
  const { services } = app;
  // Nobody has shown a credential on these routes yet.
  const visitor = { services, actor: VISITOR };
  const throttle = new SignInThrottle();

  app.get(
    '/api/setup',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'getSetupStatus',
        summary: 'Whether first-run setup is still offered (the installation has no user yet), and how people sign in',
        security: noCredential,
        response: { 200: SetupStatus },
      },
    },
    async () => ({
      needed: await isSetupNeeded({ ctx: visitor }),
      signIn: { password: services.config.passwordSignIn, oidc: services.config.oidc?.name ?? null },
    }),
  );

  app.post(
    '/api/setup',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'setUpInstallation',
        summary: 'First-run setup: create the first organization and its owner, and sign in',
        security: noCredential,
        body: SetupBody,
        response: { 201: SessionInfo, ...errors(400, 409) },
      },
    },
    async (request, reply) => {
      const opened = await setUpInstallation({ ctx: visitor, input: request.body });
      setSessionCookie(reply, services.config, opened.token);
      return reply.status(201).header('cache-control', NO_STORE).send(opened.info);
    },
  );

  app.post(
    '/api/session',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in with email and password; sets the session cookie',
        security: noCredential,
        body: SignInBody,
        response: { 200: SessionInfo, ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const opened = await signIn({ ctx: visitor, throttle, input: { ...request.body, ip: request.ip } });
      setSessionCookie(reply, services.config, opened.token);
      return reply.header('cache-control', NO_STORE).send(opened.info);
    },
  );

  app.get(
    '/api/session',
    {
      config: { scope: { access: 'read', project: 'none' } },
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'Who is signed in, and the CSRF token to send on writes',
        security: sessionOnly,
        response: { 200: SessionInfo, ...errors(401) },
      },
    },
    async (request, reply) => reply.header('cache-control', NO_STORE).send(await describeSession({ ctx: request.ctx, input: undefined })),
  );

  app.post(
    '/api/session/delete',
    {
      config: anyone,
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out: end the session named by the cookie',
        security: sessionOnly,
        response: { 200: SignedOut, ...errors(403) },
      },
    },
    async (request, reply) => {
      const csrfToken = request.headers[CSRF_HEADER];
      await signOut({
        ctx: visitor,
        input: { token: readSessionToken(request), csrfToken: typeof csrfToken === 'string' ? csrfToken : undefined },
      });
      clearSessionCookie(reply, services.config);
      return { ok: true as const };
    },
  );
}

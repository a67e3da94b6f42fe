import { Type } from '@sinclair/typebox';

export const SetupStatus = Type.Object({
  needed: Type.Boolean(),
  signIn: Type.Object({
    password: Type.Boolean({ description: 'Whether password sign-in is offered (OIDC_PASSWORD_SIGNIN)' }),
    oidc: Type.Union([Type.String(), Type.Null()], { description: "The OpenID Connect button's provider name (OIDC_NAME), or null without OIDC" }),
  }),
});

export const SetupBody = Type.Object({
  organizationName: Type.String({ maxLength: 200 }),
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 1024 }),
});

export const SignInBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
});

export const SessionInfo = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String() }),
  organization: Type.Object({ id: Type.String(), name: Type.String() }),
  csrfToken: Type.String({ description: 'Send back in the x-csrf-token header on every write made with this session' }),
});

export const SignedOut = Type.Object({ ok: Type.Literal(true) });

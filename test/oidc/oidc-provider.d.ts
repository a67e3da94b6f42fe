// oidc-provider ships no types; the little the tests use of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface Context {
    oidc: {
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: Context, id: string) => unknown;
        loadExistingGrant?: (ctx: Context) => Promise<Grant>;
      },
    );
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}

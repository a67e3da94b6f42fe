import http from 'node:http';
import Provider from 'oidc-provider';

/** A person the in-process identity provider knows. */
export interface Person {
  email: string;
  verified: boolean;
}

export const CLIENT = { id: 'eventlog-tests', secret: 'a-client-secret-for-tests-only' };

/**
 * A real OpenID provider (oidc-provider) on loopback, with its development login form and consent
 * granted ahead, so a test signs a person in with two form posts.
 */
export async function startProvider(redirectUri: string, port: number): Promise<{ issuer: string; people: Map<string, Person>; close(): Promise<void> }> {
  const people = new Map<string, Person>();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      { client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => {
      const person = people.get(id);
      return person ? { accountId: id, claims: () => ({ sub: id, email: person.email, email_verified: person.verified }) } : undefined;
    },
    // Consent is granted ahead: the tests sign in, they do not study consent screens.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    // The email claims in the ID token itself, as Keycloak and Authentik send them.
    conformIdTokenClaims: false,
    cookies: { keys: ['a-cookie-key-for-tests-only'] },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    people,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Cookies kept across the provider's redirects, as a browser would. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Goes from the authorization URL through the provider's login form as `accountId`, following
 * redirects by hand, and answers the URL the provider sends the browser back to (the callback).
 */
export async function signInAtProvider(authorizationUrl: string, accountId: string): Promise<string> {
  const jar = new Jar();
  let url = authorizationUrl;
  for (let step = 0; step < 10; step++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (!next.startsWith(new URL(authorizationUrl).origin)) return next;
      url = next;
      continue;
    }
    // The development login form: post the account id.
    await response.text();
    const posted = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }).toString(),
    });
    jar.take(posted);
    url = new URL(posted.headers.get('location') ?? url, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

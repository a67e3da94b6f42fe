import * as client from 'openid-client';
import type { Config } from '../../config.ts';

/** What the callback needs back: kept in the signed attempt cookie between start and callback. */
export interface OidcAttempt {
  state: string;
  nonce: string;
  verifier: string;
}

/** The ID token claims sign-in reads. */
export interface OidcIdentity {
  email: string | null;
  emailVerified: boolean;
}

/** Seconds of clock difference with the issuer tolerated on the ID token's iat, exp and nbf. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** An issuer on this machine may speak plain http (a provider in development, the tests). */
function isLoopback(issuer: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
}

/**
 * The relying party, all protocol work done by openid-client (a certified library): discovery
 * through /.well-known/openid-configuration, the authorization code flow with PKCE S256, state
 * and nonce, and ID token validation (signature against the issuer's JWKS, which it fetches
 * again when a token names a key it does not know, so rotated keys are picked up; issuer,
 * audience, expiry with clock tolerance, nonce). Discovery runs once per process, and again after
 * a failure.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: NonNullable<Config['oidc']>,
    private readonly redirectUri: string,
  ) {}

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      const metadata: Partial<client.ClientMetadata> = { client_secret: this.settings.clientSecret, [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS };
      const options = isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : undefined;
      this.configuration = client.discovery(issuer, this.settings.clientId, metadata, undefined, options);
      this.configuration.catch(() => (this.configuration = undefined));
    }
    return this.configuration;
  }

  /** The issuer's authorization URL for a new attempt, and the attempt to keep until the callback. */
  async start(): Promise<{ url: string; attempt: OidcAttempt }> {
    const configuration = await this.discover();
    const attempt = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, attempt };
  }

  /** Checks the callback against its attempt, exchanges the code and validates the ID token; throws on any failure. */
  async finish(callbackUrl: URL, attempt: OidcAttempt): Promise<OidcIdentity> {
    const configuration = await this.discover();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      pkceCodeVerifier: attempt.verifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the issuer sent no ID token');
    return { email: typeof claims.email === 'string' ? claims.email : null, emailVerified: claims.email_verified === true };
  }
}

import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { resolveSecretFiles } from './secretFiles.ts';
import { type SmtpSettings, parseSmtpSettings } from './smtpSettings.ts';

/** Every process setting, parsed and checked once. See operations.md "Process". */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  timeZone: string;
  allowPrivateWebhookUrls: boolean;
  /** How often the server prunes events past their project's retention (RETENTION_INTERVAL_SECONDS). */
  retentionIntervalSeconds: number;
  /** How often the server looks for alerts to evaluate besides event announcements (ALERT_EVALUATION_INTERVAL_SECONDS). */
  alertIntervalSeconds: number;
  /** Bearer token for GET /metrics; unset, /metrics does not exist. */
  metricsToken: string | undefined;
  /**
   * Which forwarded headers to believe (Fastify's `trustProxy`): false (the socket's address is
   * the client), a hop count, or the addresses/CIDRs of the proxies in front of the server.
   */
  trustProxy: false | number | string[];
  /** Outgoing email (SMTP_URL, SMTP_FROM); undefined when SMTP_URL is unset. See smtpSettings.ts. */
  smtp: SmtpSettings | undefined;
  /** Sign-in with OpenID Connect (OIDC_*); null unless OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set. */
  oidc: OidcSettings | null;
  /** OIDC_PASSWORD_SIGNIN=off turns password sign-in off (POST /api/session answers 403). */
  passwordSignIn: boolean;
}

interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button says: "Sign in with <name>" (OIDC_NAME, default SSO). */
  name: string;
}

export class ConfigError extends Error {}

export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  // DATABASE_URL_FILE and the other secrets' <NAME>_FILE become their values first (secretFiles.ts).
  const env = resolveSecretFiles(rawEnv, (message) => new ConfigError(message));
  const port = parsePort(env.PORT ?? '3000');
  const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    throw new ConfigError(`BASE_URL must be an http(s) address, got ${JSON.stringify(env.BASE_URL)}`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    baseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    timeZone: resolveTimeZone(env.TZ),
    allowPrivateWebhookUrls: env.ALLOW_PRIVATE_WEBHOOK_URLS === '1',
    retentionIntervalSeconds: parseRetentionInterval(env.RETENTION_INTERVAL_SECONDS ?? '30'),
    alertIntervalSeconds: parseAlertInterval(env.ALERT_EVALUATION_INTERVAL_SECONDS ?? '10'),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtp: parseSmtpSettings(env.SMTP_URL, env.SMTP_FROM, baseUrl, (message) => new ConfigError(message)),
    oidc: parseOidc(env),
    passwordSignIn: parsePasswordSignIn(env.OIDC_PASSWORD_SIGNIN),
  };
}

/** All three of issuer, client id and secret, or none: half a configuration is a mistake to report. */
function parseOidc(env: NodeJS.ProcessEnv): OidcSettings | null {
  const issuer = env.OIDC_ISSUER?.trim() || '';
  const clientId = env.OIDC_CLIENT_ID?.trim() || '';
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim() || '';
  if (!issuer && !clientId && !clientSecret) return null;
  if (!issuer || !clientId || !clientSecret) {
    throw new ConfigError('OpenID Connect needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together');
  }
  if (!/^https?:\/\/[^/]+/.test(issuer)) throw new ConfigError(`OIDC_ISSUER must be an http(s) address, got ${JSON.stringify(issuer)}`);
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || 'SSO' };
}

function parsePasswordSignIn(raw: string | undefined): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new ConfigError(`OIDC_PASSWORD_SIGNIN must be on or off, got ${JSON.stringify(raw)}`);
}

/** At most 60: the contract prunes an expired event within 60 seconds. */
function parseRetentionInterval(raw: string): number {
  const seconds = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || seconds < 1 || seconds > 60) {
    throw new ConfigError(`RETENTION_INTERVAL_SECONDS must be an integer from 1 to 60, got ${JSON.stringify(raw)}`);
  }
  return seconds;
}

/** 0.1 to 10 seconds: alert states must follow their events within 15 seconds (extensions.md, "Alerts"). */
function parseAlertInterval(raw: string): number {
  const seconds = Number(raw);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || seconds < 0.1 || seconds > 10) {
    throw new ConfigError(`ALERT_EVALUATION_INTERVAL_SECONDS must be a number from 0.1 to 10, got ${JSON.stringify(raw)}`);
  }
  return seconds;
}

/**
 * TRUST_PROXY: unset/empty/0 trusts no forwarded header; a number N believes the last N hops of
 * X-Forwarded-For; a comma-separated list of addresses or CIDRs believes only those proxies.
 * "true" (trust anyone) is refused on purpose: any client could then choose its own address.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (address.includes(':') ? 128 : 32));
    if (extra !== undefined || !validBits || !(isIPv4(address) || isIPv6(address))) {
      throw new ConfigError(`TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses or CIDRs, got ${JSON.stringify(raw)}`);
    }
  }
  return entries;
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

/** The IANA zone chart days are bucketed in: TZ when set, else the machine's. */
function resolveTimeZone(tz: string | undefined): string {
  const zone = tz?.trim().replace(/^:/, '') || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ConfigError(`TZ is not a known time zone: ${JSON.stringify(tz)}`);
  }
  return zone;
}

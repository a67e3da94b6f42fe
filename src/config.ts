import path from 'node:path';

/** Every process setting, parsed and checked once. See operations.md "Process". */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  timeZone: string;
  allowPrivateWebhookUrls: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  };
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

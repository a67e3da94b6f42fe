/**
 * SMTP_URL and SMTP_FROM (extensions.md, "Email"), parsed once. The URL's password is kept in a
 * non-enumerable property, so printing, logging or serialising the settings (or the whole
 * config) never shows it; only the mail transport reads it.
 */
export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. smtp:// upgrades with STARTTLS whenever the server offers it. */
  secure: boolean;
  /**
   * smtp:// with a user: STARTTLS is required before the credentials go out, and a server that
   * cannot upgrade gets no mail (decision 200). `?tls=off` in SMTP_URL lifts it, explicitly.
   */
  requireTls: boolean;
  user: string | undefined;
  /** Non-enumerable: read it by name only. */
  readonly password: string | undefined;
  /** The From header: an address, or `Name <address>`. */
  from: string;
}

const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+$/;
const NAMED = /^([^<>]*)<([^\s@<>",]+@[^\s@<>",]+)>$/;

/** What SMTP_URL looks like, for error messages that must not echo the value (it holds a password). */
const SHAPE = 'smtp://user:password@host:port (or smtps:// for TLS from the first byte)';

export function parseSmtpSettings(
  rawUrl: string | undefined,
  rawFrom: string | undefined,
  baseUrl: string,
  fail: (message: string) => Error,
): SmtpSettings | undefined {
  const text = rawUrl?.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(`SMTP_URL must look like ${SHAPE}; the value given is not a URL`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw fail(`SMTP_URL must look like ${SHAPE}; it starts with ${url.protocol}`);
  if (!url.hostname) throw fail(`SMTP_URL must look like ${SHAPE}; it names no host`);
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const user = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  const tls = url.searchParams.get('tls');
  if (tls !== null && tls !== 'off')
    throw fail(`SMTP_URL's tls may only be "off" (send credentials over an unencrypted connection); it is ${JSON.stringify(tls)}`);
  const settings = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure,
    requireTls: !secure && user !== undefined && tls !== 'off',
    user,
    from: parseFrom(rawFrom, baseUrl, fail),
  };
  Object.defineProperty(settings, 'password', { value: password, enumerable: false });
  return settings as SmtpSettings;
}

/** SMTP_FROM, or `Eventlog <eventlog@host of BASE_URL>` when unset. */
function parseFrom(raw: string | undefined, baseUrl: string, fail: (message: string) => Error): string {
  const from = raw?.trim();
  if (!from) return `Eventlog <eventlog@${new URL(baseUrl).hostname}>`;
  const named = NAMED.exec(from);
  if (ADDRESS.test(from) || (named && !/[\r\n]/.test(from))) return from;
  throw fail(`SMTP_FROM must be an address or "Name <address>", got ${JSON.stringify(from)}`);
}

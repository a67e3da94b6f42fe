import type { ChannelFormat } from './index.ts';

// The credentials a channel URL carries (extensions.md, "Channels"): the user-info, the query
// values `token`, `user` and `access_token`, and the Telegram bot token in the path. Every reply
// and page shows them as `***`; a PATCH that sends `***` back in one of those places keeps the
// stored value there. Worked on the URL's text, so the rest of it stays exactly as saved.

const MASK = '***';
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i;
const QUERY_SECRET = /([?&](token|user|access_token)=)([^&#]*)/g;
const BOT_TOKEN = /(\/bot)([^/?#]+)(\/)/;

export function maskCredentials(url: string, format: ChannelFormat): string {
  let masked = url.replace(USER_INFO, `$1${MASK}@`).replace(QUERY_SECRET, `$1${MASK}`);
  if (format === 'telegram') masked = masked.replace(BOT_TOKEN, `$1${MASK}$3`);
  return masked;
}

/** `next` with every `***` in a credential place replaced by what `stored` holds there. */
export function keepMaskedCredentials(next: string, stored: string, format: ChannelFormat): string {
  let url = next;
  const storedUserInfo = USER_INFO.exec(stored)?.[2];
  if (storedUserInfo !== undefined)
    url = url.replace(USER_INFO, (whole, scheme: string, info: string) => (info === MASK ? `${scheme}${storedUserInfo}@` : whole));
  const storedQuery = new Map<string, string>();
  for (const [, , key, value] of stored.matchAll(QUERY_SECRET)) if (!storedQuery.has(key as string)) storedQuery.set(key as string, value as string);
  url = url.replace(QUERY_SECRET, (whole, prefix: string, key: string, value: string) =>
    value === MASK && storedQuery.has(key) ? `${prefix}${storedQuery.get(key)}` : whole,
  );
  const storedBot = BOT_TOKEN.exec(stored)?.[2];
  if (format === 'telegram' && storedBot !== undefined) {
    url = url.replace(BOT_TOKEN, (whole, before: string, token: string, after: string) => (token === MASK ? `${before}${storedBot}${after}` : whole));
  }
  return url;
}

import type { DestinationFormat } from '../../types.ts';

/** The format a pasted URL names, when it is recognisably one service's; null otherwise. */
export function formatFromUrl(text: string): DestinationFormat | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return text.trim().toLowerCase().startsWith('mailto:') ? 'email' : null;
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'mailto:') return 'email';
  if (host === 'api.telegram.org') return 'telegram';
  if (host === 'api.pushover.net') return 'pushover';
  if (host.endsWith('.logic.azure.com') || host.endsWith('.powerplatform.com')) return 'teams';
  if (host === 'chat.googleapis.com') return 'googlechat';
  if (url.pathname.includes('/_matrix/')) return 'matrix';
  if (url.pathname.endsWith('/message') && url.searchParams.has('token')) return 'gotify';
  if (host === 'ntfy.sh') return 'ntfy';
  return null;
}

/** "Where do I find this URL", per service. */
export const CHANNEL_HELP: Partial<Record<DestinationFormat, string>> = {
  telegram: 'Create a bot with @BotFather, add it to the chat: https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id>',
  ntfy: 'Your topic URL: https://ntfy.sh/<topic>; a protected topic takes user:password@ or ?token=<access token>',
  pushover: 'https://api.pushover.net/1/messages.json?token=<application token>&user=<user or group key>',
  teams: 'In the channel: Workflows → “Post to a channel when a webhook request is received”; paste its URL',
  googlechat: 'Space settings → Apps & integrations → Webhooks; paste the webhook URL',
  matrix: 'https://<homeserver>/_matrix/client/v3/rooms/<room id>/send/m.room.message?access_token=<bot token>',
  gotify: 'Create an application in Gotify: https://<server>/message?token=<application token>',
};

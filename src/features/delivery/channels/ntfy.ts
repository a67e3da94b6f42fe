import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToMarkdown } from './markupRender.ts';
import { cut, tagLines } from './message.ts';

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** ntfy's message limit (its default message-size-limit, 4 KB). */
const MAX_MESSAGE = 4096;

function topicOf(url: URL): { base: string; topic: string } | null {
  const segments = url.pathname.split('/');
  const topic = segments.pop() ?? '';
  if (!TOPIC.test(topic)) return null;
  return { base: segments.join('/') || '/', topic };
}

/** `https://<server>[/<path>]/<topic>`, credentials as user-info (Basic) or `?token=` (Bearer). */
export const ntfy: Channel = {
  checkUrl(url) {
    if (!topicOf(url)) return 'an ntfy url ends with its topic: https://ntfy.sh/<topic> (letters, digits, - and _)';
    if (url.password && !url.username) return 'an ntfy url with a password needs a user name';
    return null;
  },
  request(message, url) {
    const { base, topic } = topicOf(url) as { base: string; topic: string };
    const parts: string[] = [];
    if (message.description) parts.push(markupToMarkdown(message.description));
    if (message.tags.length) parts.push(tagLines(message).join('  \n'));
    parts.push(message.link);
    const headers: Record<string, string> = { ...JSON_HEADERS };
    const token = url.searchParams.get('token');
    if (url.username) {
      const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else if (token) headers.authorization = `Bearer ${token}`;
    const body = { topic, title: message.heading, message: cut(parts.join('\n\n'), MAX_MESSAGE), click: message.link, markdown: true };
    return { method: 'POST', url: bareUrl(url, base), headers, body: JSON.stringify(body) };
  },
};

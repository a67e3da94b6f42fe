import { escapeHtml } from '../../../lib/markup/markupHtml.ts';
import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToTelegramHtml } from './markupRender.ts';
import { cutHtml, tagLines } from './message.ts';

const PATH = /^(.*)\/bot([^/]+)\/sendMessage$/;
/** Telegram's sendMessage text limit, in characters. */
const MAX_TEXT = 4096;

/** `https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>[&message_thread_id=<n>]`. */
export const telegram: Channel = {
  checkUrl(url) {
    if (!PATH.test(url.pathname)) return 'a telegram url is https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>';
    if (!url.searchParams.get('chat_id')) return 'a telegram url needs ?chat_id=<chat>';
    const thread = url.searchParams.get('message_thread_id');
    if (thread !== null && !/^\d{1,19}$/.test(thread)) return 'message_thread_id must be a number';
    return null;
  },
  request(message, url) {
    const parts = [`<b>${escapeHtml(message.heading)}</b>`];
    if (message.description) parts.push(markupToTelegramHtml(message.description));
    if (message.tags.length) parts.push(tagLines(message).map(escapeHtml).join('\n'));
    parts.push(escapeHtml(message.link));
    const thread = url.searchParams.get('message_thread_id');
    const body = {
      chat_id: url.searchParams.get('chat_id'),
      text: cutHtml(parts.join('\n\n'), MAX_TEXT),
      parse_mode: 'HTML',
      ...(thread === null ? {} : { message_thread_id: Number(thread) }),
    };
    return { method: 'POST', url: bareUrl(url), headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
};

import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToPlain } from './markupRender.ts';
import { cut, tagLines } from './message.ts';

/** Google Chat's text message limit is 4,096 characters. */
const MAX_TEXT = 4096;

/** A space webhook: `https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…`. */
export const googlechat: Channel = {
  checkUrl(url, { allowPrivate }) {
    if (url.protocol !== 'https:' && !allowPrivate) return 'a googlechat url is the https address of a space webhook';
    if (!/\/v1\/spaces\/[^/]+\/messages$/.test(url.pathname)) return 'a googlechat url is https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…';
    return null;
  },
  request(message, url) {
    // Chat's own markup: *bold*; the event's text goes as plain text.
    const parts = [`*${message.heading.replace(/\*/g, '∗')}*`];
    if (message.description) parts.push(markupToPlain(message.description));
    if (message.tags.length) parts.push(tagLines(message).join('\n'));
    parts.push(message.link);
    // The key and token are the webhook's address: Chat takes them only in the query.
    const body = { text: cut(parts.join('\n\n'), MAX_TEXT) };
    return { method: 'POST', url: `${bareUrl(url)}${url.search}`, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
};

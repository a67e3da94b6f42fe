import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToMarkdown } from './markupRender.ts';
import { cut, tagLines } from './message.ts';

const MAX_MESSAGE = 8192;

/** `https://<server>[/<path>]/message?token=<application token>`. */
export const gotify: Channel = {
  checkUrl(url) {
    if (!/\/message$/.test(url.pathname)) return 'a gotify url is https://<server>/message?token=<application token>';
    if (!url.searchParams.get('token')) return 'a gotify url needs ?token=<application token>';
    return null;
  },
  request(message, url) {
    const parts: string[] = [];
    if (message.description) parts.push(markupToMarkdown(message.description));
    if (message.tags.length) parts.push(tagLines(message).join('  \n'));
    parts.push(message.link);
    const body = {
      title: message.heading,
      message: cut(parts.join('\n\n'), MAX_MESSAGE),
      priority: 5,
      extras: { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: message.link } } },
    };
    return { method: 'POST', url: bareUrl(url), headers: { ...JSON_HEADERS, 'x-gotify-key': url.searchParams.get('token') ?? '' }, body: JSON.stringify(body) };
  },
};

import { escapeHtml } from '../../../lib/markup/markupHtml.ts';
import { type Channel, bareUrl } from './channel.ts';
import { markupToPlain } from './markupRender.ts';
import { cut, cutHtml, tagLines } from './message.ts';

const MAX_TITLE = 250;
const MAX_MESSAGE = 1024;

/** `https://api.pushover.net/1/messages.json?token=<app token>&user=<user key>[&device=<name>]`. */
export const pushover: Channel = {
  checkUrl(url) {
    if (!url.pathname.endsWith('/1/messages.json')) return 'a pushover url is https://api.pushover.net/1/messages.json?token=<app token>&user=<user key>';
    if (!url.searchParams.get('token')) return 'a pushover url needs ?token=<application token>';
    if (!url.searchParams.get('user')) return 'a pushover url needs &user=<user or group key>';
    return null;
  },
  request(message, url) {
    // html=1: Pushover reads b, i, u, font and a; the description goes as escaped plain text.
    const parts: string[] = [];
    if (message.description) parts.push(escapeHtml(markupToPlain(message.description)));
    if (message.tags.length) parts.push(tagLines(message).map(escapeHtml).join('\n'));
    const text = parts.length ? parts.join('\n\n') : escapeHtml(message.heading);
    const form = new URLSearchParams({ token: url.searchParams.get('token') ?? '', user: url.searchParams.get('user') ?? '' });
    const device = url.searchParams.get('device');
    if (device) form.set('device', device);
    form.set('title', cut(message.heading, MAX_TITLE));
    form.set('message', cutHtml(text, MAX_MESSAGE));
    form.set('html', '1');
    form.set('url', message.link);
    form.set('url_title', 'Open in Eventlog');
    return { method: 'POST', url: bareUrl(url), headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() };
  },
};

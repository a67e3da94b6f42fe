import { escapeHtml } from '../../../lib/markup/markupHtml.ts';
import { type Channel, JSON_HEADERS, bareUrl } from './channel.ts';
import { markupToMatrixHtml, markupToPlain } from './markupRender.ts';
import { cut, cutHtml, tagLines } from './message.ts';

const PATH = /\/_matrix\/client\/v3\/rooms\/[^/]+\/send\/m\.room\.message$/;
/** Matrix events are at most 64 KB; both bodies together stay well below. */
const MAX_BODY = 16_000;

/** `https://<homeserver>/_matrix/client/v3/rooms/<room id>/send/m.room.message?access_token=<token>`. */
export const matrix: Channel = {
  checkUrl(url) {
    if (!PATH.test(url.pathname)) return 'a matrix url is https://<homeserver>/_matrix/client/v3/rooms/<room id>/send/m.room.message?access_token=<token>';
    if (!url.searchParams.get('access_token')) return 'a matrix url needs ?access_token=<token>';
    return null;
  },
  request(message, url, deliveryId) {
    const plain = [message.heading];
    const html = [`<p><strong>${escapeHtml(message.heading)}</strong></p>`];
    if (message.description) {
      plain.push(markupToPlain(message.description));
      html.push(markupToMatrixHtml(message.description));
    }
    if (message.tags.length) {
      plain.push(tagLines(message).join('\n'));
      html.push(`<p>${tagLines(message).map(escapeHtml).join('<br>')}</p>`);
    }
    plain.push(message.link);
    html.push(`<p><a href="${escapeHtml(message.link)}">Open in Eventlog</a></p>`);
    const body = {
      msgtype: 'm.text',
      body: cut(plain.join('\n\n'), MAX_BODY),
      format: 'org.matrix.custom.html',
      formatted_body: cutHtml(html.join(''), MAX_BODY),
    };
    // The delivery's id as the transaction id: a retried attempt is the same transaction, which
    // the homeserver applies once; a replay is a new delivery and so a new message.
    const target = `${bareUrl(url)}/${encodeURIComponent(deliveryId)}`;
    return {
      method: 'PUT',
      url: target,
      headers: { ...JSON_HEADERS, authorization: `Bearer ${url.searchParams.get('access_token')}` },
      body: JSON.stringify(body),
    };
  },
};

import type { DeliveryFormat } from '../../ports.ts';
import type { EventObject } from '../events/eventObject.ts';
import { type MailContext, renderEventEmail } from './emailMessage.ts';
import { channelMessage } from './channels/message.ts';

export type { DeliveryFormat } from '../../ports.ts';

/** Discord's embed limits (characters). The sum of all text in one embed is capped as well. */
const EMBED_LIMITS = { title: 256, description: 4096, footer: 2048, total: 6000 } as const;

/**
 * The body a destination receives for a notify event (spec "Delivery formats"). Rendered once,
 * when the event is fanned out, and sent unchanged by every attempt and replay.
 */
export function renderDeliveryBody(format: DeliveryFormat, event: EventObject, now: Date, where: MailContext): string {
  switch (format) {
    case 'email':
      return JSON.stringify(renderEventEmail(event, where));
    case 'json':
      return JSON.stringify({ type: 'event.notify', project: event.projectId, timestamp: now.toISOString(), event: { ...event, notify: true } });
    case 'text':
      return JSON.stringify({ text: textMessage(event) });
    case 'embed':
      return JSON.stringify({ embeds: [embed(event)] });
    default:
      // A channel's request depends on its URL: the body keeps the message's parts (channels/).
      return JSON.stringify(channelMessage(event, where.baseUrl));
  }
}

/**
 * Slack's message text: the title in bold, then the description, then the url, one per line.
 * Slack reads `&`, `<` and `>` as markup, so they are escaped the way its documentation asks.
 */
function textMessage(event: EventObject): string {
  const lines = [`*${slackEscape(event.title)}*`];
  if (event.description) lines.push(slackEscape(event.description));
  if (event.url) lines.push(slackEscape(event.url));
  return lines.join('\n');
}

function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface Embed {
  title: string;
  description?: string;
  url?: string;
  footer: { text: string };
}

/**
 * One Discord embed. Over-long text is cut (with an ellipsis), never refused: Discord answers 400
 * to an embed over its limits, and a lost notification is worse than a shortened one. A url that
 * Discord would reject (not http or https) is left out for the same reason.
 */
function embed(event: EventObject): Embed {
  const title = truncate(event.title, EMBED_LIMITS.title);
  const footer = truncate(event.category, EMBED_LIMITS.footer);
  const room = Math.min(EMBED_LIMITS.description, EMBED_LIMITS.total - title.length - footer.length);
  const description = event.description?.trim() ? truncate(event.description, room) : undefined;
  const url = event.url && isWebUrl(event.url) ? event.url : undefined;
  // Key order is the spec's: title, description, url, footer.
  return {
    title,
    ...(description === undefined ? {} : { description }),
    ...(url === undefined ? {} : { url }),
    footer: { text: footer },
  };
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * At most `max` UTF-16 code units, ending in an ellipsis when cut. Code units are never fewer than
 * the characters Discord counts, so the result fits however Discord counts; a surrogate pair is
 * never split.
 */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

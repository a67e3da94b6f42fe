import type { EventObject } from '../../events/eventObject.ts';
import { tagText } from '../../events/tagFilter.ts';
import { TEST_EVENT_ID } from '../attemptLog.ts';

/**
 * What a channel delivery's body holds (extensions.md, "Channels"): the message's parts, rendered
 * at fan-out and frozen like every delivery body. Each channel turns it into its service's request
 * at send time, from the destination's URL as it is then (a PATCHed URL takes effect at once).
 * `description` is the event's markup source; each channel renders it to its own markup.
 */
export interface ChannelMessage {
  /** The event's icon and title, the icon first. */
  heading: string;
  description: string | null;
  tags: Array<[string, string]>;
  /** The event in the dashboard: `BASE_URL/app/p/<project id>?event=<event id>` (a Test's: the project's feed). */
  link: string;
}

export function channelMessage(event: EventObject, baseUrl: string): ChannelMessage {
  return {
    heading: event.icon ? `${event.icon} ${event.title}` : event.title,
    description: event.description?.trim() ? event.description : null,
    tags: Object.entries(event.tags ?? {}).map(([key, value]) => [key, tagText(value)]),
    link: `${baseUrl}/app/p/${encodeURIComponent(event.projectId)}${event.id === TEST_EVENT_ID ? '' : `?event=${event.id}`}`,
  };
}

export function parseChannelMessage(body: string): ChannelMessage {
  return JSON.parse(body) as ChannelMessage;
}

/**
 * At most `max` UTF-16 code units (never fewer than the characters a service counts), ending in
 * `…` when cut; a surrogate pair is never split.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** The tags as `key: value` lines. */
export function tagLines(message: ChannelMessage): string[] {
  return message.tags.map(([key, value]) => `${key}: ${value}`);
}

/**
 * `cut` for HTML: never inside a tag or an entity, and the tags left open are closed before the
 * `…`, so the service still accepts the markup (Telegram refuses unbalanced HTML).
 */
export function cutHtml(html: string, max: number): string {
  if (html.length <= max) return html;
  let end = max - 1;
  for (;;) {
    let kept = html.slice(0, end);
    const lastOpen = kept.lastIndexOf('<');
    if (lastOpen > kept.lastIndexOf('>')) kept = kept.slice(0, lastOpen);
    const lastAmp = kept.lastIndexOf('&');
    if (lastAmp > kept.lastIndexOf(';')) kept = kept.slice(0, lastAmp);
    const open: string[] = [];
    for (const [, closing, name] of kept.matchAll(/<(\/?)([a-z0-9]+)[^>]*>/g)) {
      if (name === 'br') continue;
      if (closing) open.pop();
      else open.push(name as string);
    }
    const closers = open
      .reverse()
      .map((name) => `</${name}>`)
      .join('');
    const result = `${kept}${closers}…`;
    if (result.length <= max || end === 0) return result;
    end = Math.max(0, end - (result.length - max));
  }
}

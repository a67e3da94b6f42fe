import { codePointLength } from '../../lib/text.ts';
import type { EventObject } from '../events/eventObject.ts';

/**
 * Push services take about 4 KB of encrypted payload; the plaintext is kept well under that.
 * Text is cut by characters until the JSON fits.
 */
const MAX_PUSH_PAYLOAD_BYTES = 3000;
const MAX_TITLE = 200;
const MAX_BODY = 1000;

interface PushPayload {
  title: string;
  body: string;
  icon: string | null;
  /** Opens the event's project feed in the dashboard. */
  url: string;
}

/** What web/public/sw.js shows: the title, the description (or the category), the icon and a link. */
export function pushPayload(event: EventObject, baseUrl: string): string {
  const payload: PushPayload = {
    title: cut(event.title, MAX_TITLE),
    body: cut(event.description?.trim() ? event.description : `#${event.category}`, MAX_BODY),
    icon: event.icon,
    url: `${baseUrl}/app/p/${encodeURIComponent(event.projectId)}?event=${event.id}`,
  };
  let json = JSON.stringify(payload);
  while (Buffer.byteLength(json) > MAX_PUSH_PAYLOAD_BYTES && (payload.body.length > 0 || payload.title.length > 1)) {
    if (payload.body.length > 0) payload.body = cut(payload.body, Math.floor(codePointLength(payload.body) / 2));
    else payload.title = cut(payload.title, Math.ceil(codePointLength(payload.title) / 2));
    json = JSON.stringify(payload);
  }
  return json;
}

function cut(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  return max <= 0 ? '' : `${points.slice(0, max - 1).join('')}…`;
}

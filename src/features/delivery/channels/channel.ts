import type { ChannelMessage } from './message.ts';

/** The request a channel sends for one attempt; the attempt's client adds the marker and agent. */
interface ChannelRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One service of extensions.md "Channels": how its URL looks and what it is sent. */
export interface Channel {
  /** Why `url` does not fit the format (a sentence for a 400), or null when it does. */
  checkUrl(url: URL, options: { allowPrivate: boolean }): string | null;
  /** The request for one attempt; `deliveryId` is the same on every attempt of a delivery. */
  request(message: ChannelMessage, url: URL, deliveryId: string): ChannelRequest;
}

/** The URL without its user-info, query and fragment: where a service's request goes. */
export function bareUrl(url: URL, path = url.pathname): string {
  return `${url.protocol}//${url.host}${path}`;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

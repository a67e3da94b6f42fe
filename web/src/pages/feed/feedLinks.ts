import { APP_BASE } from '../../paths.ts';
import type { EventItem } from '../../types.ts';

/** The address a notification opens for an event: its project's feed with `?event=<id>`. */
export function eventLink(event: Pick<EventItem, 'id' | 'projectId'>): string {
  return `${window.location.origin}${APP_BASE}/p/${encodeURIComponent(event.projectId)}?event=${event.id}`;
}

/** The event id of `?event=<id>`, or null. */
export function linkedEventOf(search: string): number | null {
  const id = Number(new URLSearchParams(search).get('event'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The text a tag has inside the serialized tags, which is what search matches. */
export function tagSearchText(key: string, value: unknown): string {
  return `${JSON.stringify(key)}:${JSON.stringify(value) ?? String(value)}`;
}

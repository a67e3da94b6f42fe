import type { EventItem, EventPage } from '../../types.ts';

const timeOf = (event: EventItem) => Date.parse(event.createdAt) || 0;

/**
 * Puts a fresh first page on top of what is shown. The page wins for events both hold (it has
 * the newer favorite state); a stable sort on time keeps the server's order within a millisecond.
 * When the page does not reach what is shown (more new events than one page), the gap could not
 * be filled, so the page replaces the list.
 */
export function mergeFirstPage(
  shown: EventItem[],
  shownCursor: string | null,
  page: EventPage,
  insert: boolean,
): { events: EventItem[]; nextCursor: string | null } {
  const fresh = new Map(page.events.map((event) => [event.id, event]));
  if (!insert) {
    return { events: shown.map((event) => fresh.get(event.id) ?? event), nextCursor: shownCursor };
  }
  const newestShown = shown[0];
  const oldestFresh = page.events.at(-1);
  if (!newestShown || (page.nextCursor !== null && oldestFresh && timeOf(oldestFresh) > timeOf(newestShown) && !fresh.has(newestShown.id))) {
    return { events: page.events, nextCursor: page.nextCursor };
  }
  const merged = [...page.events, ...shown.filter((event) => !fresh.has(event.id))];
  merged.sort((a, b) => timeOf(b) - timeOf(a));
  return { events: merged, nextCursor: shownCursor };
}

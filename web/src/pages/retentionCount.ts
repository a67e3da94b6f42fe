import * as api from '../generated/index.ts';
import type { EventPage } from '../types.ts';

/** Counting stops here: past it the dialog says "more than", and no request walks a huge project. */
export const COUNT_CAP = 1000;

/**
 * How many of the project's events are older than `days` days now, counted along the feed's
 * keyset pages (the API has no count over a feed, on purpose); at most COUNT_CAP + 1.
 */
export async function eventsOlderThan(projectId: string, days: number): Promise<number> {
  const until = Math.floor(Date.now() / 1000) - days * 86_400;
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: EventPage = await api.listEvents({ query: { project: projectId, until: String(until), limit: '100', cursor: cursor ?? undefined } });
    count += page.events.length;
    cursor = page.nextCursor;
  } while (cursor && count <= COUNT_CAP);
  return count;
}

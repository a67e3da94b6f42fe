import type { EventObject } from '../events/eventObject.ts';
import type { DeliveryFormat } from '../../ports.ts';
import { renderDeliveryBody } from './formats.ts';

/** Titles a group's message lists (extensions.md, "Grouping bursts"). */
export const GROUP_TITLES = 10;

/** Markup's own characters in a title, escaped so a title reads as written in the list. */
function literal(text: string): string {
  return text.replace(/[\\`*_[\]()#+\-.!~>]/g, (char) => `\\${char}`);
}

/**
 * The body of a group of n > 1 notify events, in the destination's format: titled `<n> events in
 * <project name>`, listing the newest titles (and `and <m> more`), linking to the project's feed.
 * Rendered as an event of its own, so every format (and every channel) writes it its usual way.
 */
export function renderGroupBody(
  format: DeliveryFormat,
  group: { count: number; titles: string[]; projectId: string; projectName: string },
  now: Date,
  where: { baseUrl: string; timeZone: string },
): string {
  const { baseUrl } = where;
  const feed = `${baseUrl}/app/p/${encodeURIComponent(group.projectId)}`;
  const lines = group.titles.map((title) => `- ${literal(title)}`);
  const more = group.count - group.titles.length;
  const description = more > 0 ? `${lines.join('\n')}\n\nand ${more} more` : lines.join('\n');
  const summary: EventObject = {
    id: 0,
    projectId: group.projectId,
    category: 'group',
    title: `${group.count} events in ${group.projectName}`,
    description,
    icon: null,
    tags: null,
    metadata: null,
    url: feed,
    user_id: null,
    notify: true,
    favorited: false,
    createdAt: now.toISOString(),
  };
  const body = renderDeliveryBody(format, summary, now, { projectName: group.projectName, baseUrl, timeZone: where.timeZone });
  // A channel's link is the event's by default; a group's is the project's feed.
  if (format === 'text' || format === 'embed' || format === 'email' || format === 'json') return body;
  return JSON.stringify({ ...(JSON.parse(body) as object), link: feed });
}

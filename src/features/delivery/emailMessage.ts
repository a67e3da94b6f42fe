import { escapeHtml, markupToHtml } from '../../lib/markup/markupHtml.ts';
import { safeHref } from '../../lib/markup/markupInline.ts';
import { emailDocument, link, oneLine } from '../email/layout.ts';
import type { EventObject } from '../events/eventObject.ts';
import { tagText } from '../events/tagFilter.ts';
import { TEST_EVENT_ID as NO_EVENT_ID } from './attemptLog.ts';

/** What an email delivery's body holds: rendered at fan-out, sent unchanged by every attempt and replay. */
export interface EventEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Where the dashboard shows this event (extensions.md, "Email"). A mail with no event of its own
 * (a Test's sample, a group's summary: id 0, which no event has) links to the project's feed, not
 * to an event the feed cannot open.
 */
function eventDashboardUrl(baseUrl: string, projectId: string, eventId: number): string {
  const feed = `${baseUrl}/app/p/${encodeURIComponent(projectId)}`;
  return eventId === NO_EVENT_ID ? feed : `${feed}?event=${eventId}`;
}

/**
 * A notify event as one email: subject `[Project] Title`; a plain-text part with the description
 * as written (its markup reads as plain text) and an HTML part with the markup rendered, every
 * piece of event text escaped; then the event's url, its tags and the link to it in the dashboard.
 */
export function renderEventEmail(event: EventObject, projectName: string, baseUrl: string): EventEmail {
  const dashboard = eventDashboardUrl(baseUrl, event.projectId, event.id);
  const tags = Object.entries(event.tags ?? {}).map(([key, value]) => [key, tagText(value)] as const);
  const heading = event.icon ? `${event.icon} ${event.title}` : event.title;

  const text = [
    heading,
    `${projectName} · ${event.category} · ${event.createdAt}`,
    ...(event.description ? ['', event.description] : []),
    ...(event.url ? ['', `Link: ${event.url}`] : []),
    ...(tags.length ? ['', 'Tags:', ...tags.map(([key, value]) => `  ${key}: ${value}`)] : []),
    '',
    `Open in Eventlog: ${dashboard}`,
    '',
    '-- ',
    `You receive this because an email destination of the project "${projectName}" lists your address.`,
  ].join('\n');

  const eventUrl = event.url ? safeHref(event.url) : null;
  const html = emailDocument(
    oneLine(`[${projectName}] ${event.title}`),
    [
      `<h1 style="font-size:20px;margin:0 0 4px;">${escapeHtml(heading)}</h1>`,
      `<p class="muted" style="margin:0 0 16px;">${escapeHtml(projectName)} · ${escapeHtml(event.category)} · ${escapeHtml(event.createdAt)}</p>`,
      event.description ? `<div>${markupToHtml(event.description)}</div>` : '',
      event.url ? `<p><strong>Link:</strong> ${eventUrl ? link(eventUrl, event.url) : escapeHtml(event.url)}</p>` : '',
      tags.length
        ? `<table class="data" role="table" aria-label="Tags"><caption style="text-align:left;font-weight:600;">Tags</caption>${tags
            .map(([key, value]) => `<tr><th scope="row">${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`)
            .join('')}</table>`
        : '',
      `<p style="margin:20px 0 0;">${link(dashboard, 'Open in Eventlog', 'button')}</p>`,
    ].join('\n'),
    `You receive this because an email destination of the project “${escapeHtml(projectName)}” lists your address.`,
  );
  return { subject: oneLine(`[${projectName}] ${event.title}`, 250), text, html };
}

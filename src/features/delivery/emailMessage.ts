import { escapeHtml, markupToHtml } from '../../lib/markup/markupHtml.ts';
import { safeHref } from '../../lib/markup/markupInline.ts';
import { alertOfEventTitle } from '../alerts/alertEvent.ts';
import { emailDocument, link, mailTime, oneLine } from '../email/layout.ts';
import type { EventObject } from '../events/eventObject.ts';
import { tagText } from '../events/tagFilter.ts';
import { TEST_EVENT_ID as NO_EVENT_ID } from './attemptLog.ts';

/** What an email delivery's body holds: rendered at fan-out, sent unchanged by every attempt and replay. */
export interface EventEmail {
  subject: string;
  text: string;
  html: string;
}

/** Where a mail is read and what it links to. */
export interface MailContext {
  projectName: string;
  /** BASE_URL: the dashboard's links start with it. */
  baseUrl: string;
  /** The reader's zone for the event's time: a member's own, else the installation's TZ. */
  timeZone: string;
  /** The alert whose transition wrote the event, if one did. */
  alertId?: string | null;
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
 * The alert on the project's Alerts tab; `mute` opens it with the Mute choice in focus. A page of
 * the dashboard behind its sign-in, never a link that mutes by itself: a mail scanner following
 * links must change nothing (decision 218).
 */
function alertDashboardUrl(baseUrl: string, projectId: string, alertId: string, mute = false): string {
  return `${baseUrl}/app/p/${encodeURIComponent(projectId)}/alerts?alert=${encodeURIComponent(alertId)}${mute ? '&mute=1' : ''}`;
}

interface AlertLinks {
  name: string;
  state: 'firing' | 'resolved';
  url: string;
  muteUrl: string;
}

function alertLinks(event: EventObject, where: MailContext): AlertLinks | null {
  const alert = where.alertId ? alertOfEventTitle(event.title) : null;
  if (!alert || !where.alertId) return null;
  return {
    ...alert,
    url: alertDashboardUrl(where.baseUrl, event.projectId, where.alertId),
    muteUrl: alertDashboardUrl(where.baseUrl, event.projectId, where.alertId, true),
  };
}

/**
 * A notify event as one email: subject `[Project] Title`; a plain-text part with the description
 * as written (its markup reads as plain text) and an HTML part with the markup rendered, every
 * piece of event text escaped; the time in the reader's zone; then the event's url, its tags and
 * the link to it in the dashboard. An alert's event names the alert with a link to it and one to
 * mute it, in place of the `alert` and `state` tags that mark it.
 */
export function renderEventEmail(event: EventObject, where: MailContext): EventEmail {
  const { projectName } = where;
  const dashboard = eventDashboardUrl(where.baseUrl, event.projectId, event.id);
  const alert = alertLinks(event, where);
  const tags = Object.entries(event.tags ?? {})
    .filter(([key]) => !alert || (key !== 'alert' && key !== 'state'))
    .map(([key, value]) => [key, tagText(value)] as const);
  const heading = event.icon ? `${event.icon} ${event.title}` : event.title;
  const when = mailTime(event.createdAt, where.timeZone);

  const text = [
    heading,
    `${projectName} · ${event.category} · ${when}`,
    ...(event.description ? ['', event.description] : []),
    ...(alert ? ['', `Alert “${alert.name}” (${alert.state}): ${alert.url}`, `Mute this alert: ${alert.muteUrl}`] : []),
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
      `<p class="muted" style="margin:0 0 16px;">${escapeHtml(projectName)} · ${escapeHtml(event.category)} · <time datetime="${escapeHtml(event.createdAt)}">${escapeHtml(when)}</time></p>`,
      event.description ? `<div>${markupToHtml(event.description)}</div>` : '',
      alert ? `<p><strong>Alert:</strong> ${link(alert.url, alert.name)} (${alert.state}) · ${link(alert.muteUrl, 'Mute this alert…')}</p>` : '',
      event.url ? `<p><strong>Link:</strong> ${eventUrl ? link(eventUrl, event.url) : escapeHtml(event.url)}</p>` : '',
      tags.length
        ? `<table class="data" role="table" aria-label="Tags"><caption style="text-align:left;font-weight:600;">Tags</caption>${tags
            .map(([key, value]) => `<tr><th scope="row">${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`)
            .join('')}</table>`
        : '',
      `<p style="margin:20px 0 0;">${alert ? `${link(alert.url, 'Open the alert', 'button')} ` : ''}${link(dashboard, alert ? 'Open its event' : 'Open in Eventlog', alert ? undefined : 'button')}</p>`,
    ].join('\n'),
    `You receive this because an email destination of the project “${escapeHtml(projectName)}” lists your address.`,
  );
  return { subject: oneLine(`[${projectName}] ${event.title}`, 250), text, html };
}

import { escapeHtml } from '../../lib/markup/markupHtml.ts';
import { emailDocument, link } from '../email/layout.ts';
import type { ReleasedRow } from './queries.ts';

/** How many titles a summary lists, newest first. */
const LISTED = 10;
const TITLE_MAX = 80;

const cut = (text: string) => ([...text].length > TITLE_MAX ? `${[...text].slice(0, TITLE_MAX - 1).join('')}…` : text);

function headline(count: number): string {
  return `${count} notification${count === 1 ? '' : 's'} while you were away`;
}

const newestFirst = (rows: readonly ReleasedRow[]) => [...rows].sort((a, b) => b.heldAt.getTime() - a.heldAt.getTime() || b.eventId - a.eventId);

/** The push a summary sends: what web/public/sw.js shows, a link to the dashboard. */
export function summaryPush(rows: readonly ReleasedRow[], baseUrl: string): string {
  const titles = newestFirst(rows)
    .slice(0, LISTED)
    .map((row) => cut(row.title));
  return JSON.stringify({ title: headline(rows.length), body: titles.join('\n'), icon: null, url: `${baseUrl}/app` });
}

/** The mail a summary sends to the member's address. */
export function summaryMail(rows: readonly ReleasedRow[], baseUrl: string): { subject: string; text: string; html: string } {
  const subject = headline(rows.length);
  const titles = newestFirst(rows)
    .slice(0, LISTED)
    .map((row) => cut(row.title));
  const more = rows.length > LISTED ? `and ${rows.length - LISTED} more` : '';
  const dashboard = `${baseUrl}/app`;
  const text = [subject, '', ...titles.map((title) => `- ${title}`), ...(more ? [more] : []), '', `Open the dashboard: ${dashboard}`].join('\n');
  const html = emailDocument(
    subject,
    `<h1>${escapeHtml(subject)}</h1><ul>${titles.map((title) => `<li>${escapeHtml(title)}</li>`).join('')}</ul>${more ? `<p>${escapeHtml(more)}</p>` : ''}<p>${link(dashboard, 'Open the dashboard', 'button')}</p>`,
    'You receive this because your notifications were held during quiet hours or a snooze; change that on your Account page.',
  );
  return { subject, text, html };
}

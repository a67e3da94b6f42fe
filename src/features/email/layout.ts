import { escapeHtml } from '../../lib/markup/markupHtml.ts';

// The frame every email of Eventlog is written in: one column, system fonts, no images, no
// remote resources and nothing that tracks opening. Colours come from the reader's scheme
// (`color-scheme: light dark`); the few set by hand have a dark counterpart.

const STYLE = `
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  body { margin: 0; padding: 0; background: #f6f7f9; color: #1d2129; }
  .frame { max-width: 640px; margin: 0 auto; padding: 24px 16px; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5; }
  .card { background: #ffffff; border: 1px solid #d8dce3; border-radius: 8px; padding: 20px; }
  .muted { color: #555d6b; font-size: 13px; }
  a { color: #1a56c4; }
  a.button { display: inline-block; padding: 8px 14px; border-radius: 6px; background: #1a56c4; color: #ffffff; text-decoration: none; font-weight: 600; }
  table.data { border-collapse: collapse; width: 100%; }
  table.data th, table.data td { text-align: left; padding: 4px 8px 4px 0; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
  @media (prefers-color-scheme: dark) {
    body { background: #15171b; color: #e6e8eb; }
    .card { background: #1e2126; border-color: #343941; }
    .muted { color: #a5acb8; }
    a { color: #8ab4ff; }
    a.button { background: #8ab4ff; color: #10131a; }
    table.data th, table.data td { border-color: #343941; }
  }`;

/** A whole HTML document around `body` (already HTML); `title` is text. */
export function emailDocument(title: string, body: string, footer: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="frame" role="article" aria-label="${escapeHtml(title)}">
<div class="card">
${body}
</div>
<p class="muted">${footer}</p>
</div>
</body>
</html>`;
}

/** A link whose address and text are both escaped. */
export function link(href: string, text: string, className?: string): string {
  return `<a href="${escapeHtml(href)}"${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</a>`;
}

/** One line for a header (Subject): no line breaks, at most `max` characters. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A moment as people read it in a mail, in the reader's zone (a member's, else the installation's
 * TZ), the zone named: "27 Nov 2026, 14:05 (Europe/Paris)". Mails used to print ISO 8601 in UTC.
 */
export function mailTime(at: Date | string, timeZone: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return `${new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(date)} (${timeZone})`;
}

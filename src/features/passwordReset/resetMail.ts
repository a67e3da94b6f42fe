import { escapeHtml } from '../../lib/markup/markupHtml.ts';
import type { OutgoingMail } from '../../ports.ts';
import { emailDocument, link } from '../email/layout.ts';

/** The reset link's mail: the link, how long it works, and what to do when it was not you. */
export function resetMail(to: string, url: string, organizationName: string): OutgoingMail {
  const subject = 'Reset your Eventlog password';
  const text = [
    `Someone asked to reset the password of ${to} for ${organizationName} on Eventlog.`,
    '',
    'Choose a new password here (the link works once, for 1 hour):',
    url,
    '',
    'If it was not you, ignore this mail: your password stays as it is.',
  ].join('\n');
  const html = emailDocument(
    subject,
    [
      `<h1 style="font-size:20px;margin:0 0 12px;">Reset your password</h1>`,
      `<p>Someone asked to reset the password of <strong>${escapeHtml(to)}</strong> for ${escapeHtml(organizationName)} on Eventlog.</p>`,
      `<p>${link(url, 'Choose a new password', 'button')}</p>`,
      `<p class="muted">The link works once, for 1 hour: ${escapeHtml(url)}</p>`,
      `<p>If it was not you, ignore this mail: your password stays as it is.</p>`,
    ].join('\n'),
    'Sent by Eventlog because a password reset was asked for at the sign-in page.',
  );
  return { to: [to], subject, text, html };
}

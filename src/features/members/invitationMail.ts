import { escapeHtml } from '../../lib/markup/markupHtml.ts';
import type { OutgoingMail } from '../../ports.ts';
import { emailDocument, link } from '../email/layout.ts';

/** The invitation's mail: who invites, to which organization, the link and how long it works. */
export function invitationMail(to: string, url: string, organizationName: string, role: string): OutgoingMail {
  const subject = `You are invited to ${organizationName} on Eventlog`;
  const text = [
    `You are invited to join ${organizationName} on Eventlog as ${role === 'owner' ? 'an owner' : 'a member'}.`,
    '',
    'Accept the invitation and choose your password here (the link works once, for 7 days):',
    url,
    '',
    'If you did not expect this invitation, ignore this mail.',
  ].join('\n');
  const html = emailDocument(
    subject,
    [
      `<h1 style="font-size:20px;margin:0 0 12px;">Join ${escapeHtml(organizationName)} on Eventlog</h1>`,
      `<p>You are invited to join <strong>${escapeHtml(organizationName)}</strong> as ${role === 'owner' ? 'an owner' : 'a member'}.</p>`,
      `<p>${link(url, 'Accept the invitation', 'button')}</p>`,
      `<p class="muted">The link works once, for 7 days: ${escapeHtml(url)}</p>`,
      `<p>If you did not expect this invitation, ignore this mail.</p>`,
    ].join('\n'),
    `Sent by Eventlog on behalf of ${escapeHtml(organizationName)}.`,
  );
  return { to: [to], subject, text, html };
}

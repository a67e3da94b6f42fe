import { escapeHtml } from '../../lib/markup/markupHtml.ts';
import type { OutgoingMail } from '../../ports.ts';
import { emailDocument, link } from '../email/layout.ts';
import type { Digest, ProjectDigest } from './digestContent.ts';

/**
 * Against the previous period: "+12, +40%", "−3, −10%", "no change"; "new" when there was nothing
 * before. No parentheses inside: the text line puts the whole in one pair.
 */
export function change(current: number, previous: number): string {
  if (current === previous) return 'no change';
  if (previous === 0) return 'new';
  const diff = current - previous;
  const percent = Math.round((diff / previous) * 100);
  const sign = diff > 0 ? '+' : '−';
  return `${sign}${Math.abs(diff)}, ${sign}${Math.abs(percent)}%`;
}

function dateIn(zone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

function projectText(project: ProjectDigest, url: string, zone: string): string[] {
  const lines = [`== ${project.name} ==`, url];
  const total = project.categories.reduce((sum, row) => sum + row.current, 0);
  lines.push(`Events: ${total}`);
  for (const row of project.categories) lines.push(`  ${row.category}: ${row.current} (${change(row.current, row.previous)})`);
  lines.push(`Notify events: ${project.notifyCount}`);
  for (const item of project.latestNotify) lines.push(`  - ${item.title} (${dateIn(zone, item.at)})`);
  if (project.alertTransitions.length > 0) {
    lines.push('Alerts:');
    for (const item of project.alertTransitions) lines.push(`  - ${item.alertName}: ${item.state} at ${dateIn(zone, item.at)}`);
  }
  if (project.insights.length > 0) {
    lines.push('Insights:');
    for (const item of project.insights) lines.push(`  ${item.title}: ${item.value}`);
  }
  return lines;
}

/** The alert on its project's Alerts tab (`?alert=`, as an alert's own mail links it). */
function alertUrl(projectUrl: string, alertId: string): string {
  return `${projectUrl}/alerts?alert=${encodeURIComponent(alertId)}`;
}

function projectHtml(project: ProjectDigest, url: string, zone: string): string {
  const total = project.categories.reduce((sum, row) => sum + row.current, 0);
  const rows = project.categories
    .map((row) => `<tr><th scope="row">${escapeHtml(row.category)}</th><td>${row.current}</td><td>${escapeHtml(change(row.current, row.previous))}</td></tr>`)
    .join('');
  const parts = [
    `<h2 style="font-size:17px;margin:24px 0 4px;">${link(url, project.name)}</h2>`,
    `<p style="margin:0 0 8px;"><strong>${total}</strong> events · <strong>${project.notifyCount}</strong> notify events</p>`,
    rows
      ? `<table class="data"><caption style="text-align:left;" class="muted">Events per category, against the period before</caption><thead><tr><th scope="col">Category</th><th scope="col">Events</th><th scope="col">Change</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p class="muted">No events in this period.</p>',
  ];
  if (project.latestNotify.length > 0) {
    parts.push(
      `<h3 style="font-size:15px;margin:12px 0 4px;">Latest notify events</h3><ul>${project.latestNotify
        .map((item) => `<li>${escapeHtml(item.title)} <span class="muted">${escapeHtml(dateIn(zone, item.at))}</span></li>`)
        .join('')}</ul>`,
    );
  }
  if (project.alertTransitions.length > 0) {
    parts.push(
      `<h3 style="font-size:15px;margin:12px 0 4px;">Alerts</h3><ul>${project.alertTransitions
        .map(
          (item) =>
            `<li>${link(alertUrl(url, item.alertId), item.alertName)}: <strong>${escapeHtml(item.state)}</strong> <span class="muted">${escapeHtml(dateIn(zone, item.at))}</span></li>`,
        )
        .join('')}</ul>`,
    );
  }
  if (project.insights.length > 0) {
    parts.push(
      `<h3 style="font-size:15px;margin:12px 0 4px;">Insights</h3><table class="data"><tbody>${project.insights
        .map((item) => `<tr><th scope="row">${escapeHtml(item.icon ? `${item.icon} ${item.title}` : item.title)}</th><td>${escapeHtml(item.value)}</td></tr>`)
        .join('')}</tbody></table>`,
    );
  }
  return parts.join('\n');
}

/** A digest as one email: a short section per project with a link to it in the dashboard. */
export function digestMail(
  to: string,
  digest: Digest,
  q: { organizationName: string; baseUrl: string; timeZone: string; label: string; held?: { total: number; titles: string[] } },
): OutgoingMail {
  const held = q.held && q.held.total > 0 ? q.held : null;
  const heldHeading = held ? `Held while you were away: ${held.total} notification${held.total === 1 ? '' : 's'}` : '';
  const period = `${dateIn(q.timeZone, digest.from)} – ${dateIn(q.timeZone, digest.to)}`;
  const subject = `[${q.organizationName}] Your ${q.label} Eventlog digest`;
  const urlOf = (project: ProjectDigest) => `${q.baseUrl}/app/p/${encodeURIComponent(project.id)}`;
  const settings = `${q.baseUrl}/app/account`;
  const text = [
    `${q.organizationName}: ${period} (${q.timeZone})`,
    '',
    ...(digest.projects.length === 0 ? ['No projects yet.'] : digest.projects.flatMap((project) => [...projectText(project, urlOf(project), q.timeZone), ''])),
    ...(held ? [heldHeading, ...held.titles.map((title) => `- ${title}`), ''] : []),
    '-- ',
    `Change or stop these digests: ${settings}`,
  ].join('\n');
  const html = emailDocument(
    subject,
    [
      `<h1 style="font-size:20px;margin:0 0 4px;">Your ${escapeHtml(q.label)} digest</h1>`,
      `<p class="muted" style="margin:0;">${escapeHtml(q.organizationName)} · ${escapeHtml(period)} (${escapeHtml(q.timeZone)})</p>`,
      digest.projects.length === 0 ? '<p>No projects yet.</p>' : digest.projects.map((project) => projectHtml(project, urlOf(project), q.timeZone)).join('\n'),
      held ? `<h2 style="font-size:16px;">${escapeHtml(heldHeading)}</h2><ul>${held.titles.map((title) => `<li>${escapeHtml(title)}</li>`).join('')}</ul>` : '',
    ].join('\n'),
    `${link(settings, 'Change or stop these digests')} in Your account.`,
  );
  return { to: [to], subject, text, html };
}

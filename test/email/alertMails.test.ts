// An alert's mail as a person reads it (issue 49, point 19), against a real SMTP server: the time
// in words in the reader's zone (the installation's TZ for a destination's addresses, a member's
// own zone for their copy), never ISO 8601; the alert by name with a link to it in the dashboard
// and a link that offers to mute it (a dashboard page: nothing is muted by following it); no raw
// `alert: <id>` tag. Decision 218.
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { MailQueue } from '../../src/features/email/mailQueue.ts';
import { signInAs } from '../dashboard/signedIn.ts';
import { startWorker } from '../destinations/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { put } from '../notificationPreferences/support.ts';
import { type SmtpTestServer, startSmtpServer } from './support.ts';

const BASE = 'https://events.example.com';
const ZONE = 'Europe/Paris';
const smtp: SmtpTestServer = await startSmtpServer();
after(() => smtp.close());
// The delivery worker takes every organization's work: a database of the file's own. TZ is the
// installation's zone, which a destination's mail is written in.
const t = useTestApp({ BASE_URL: BASE, SMTP_URL: smtp.url, SMTP_FROM: 'Eventlog <alerts@example.com>', TZ: ZONE }, { ownDatabase: true });

let unique = 0;
const address = () => `ops-${Date.now()}-${++unique}@example.org`;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** "27 Nov 2026, 14:05 (Europe/Paris)", as the mail should write `iso`. */
function inWords(iso: string, zone: string): string {
  return `${new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))} (${zone})`;
}

function worker(tc: TestContext) {
  const started = startWorker(t);
  tc.after(() => started.stop());
}

/** An alert on one `errors` event in the last minute (a notify event), made to fire now; its id and its event. */
async function fire(org: TestOrg, project: string): Promise<{ alertId: string; event: { id: number; createdAt: string } }> {
  const created = await org.post(`/api/projects/${project}/alerts`, {
    name: 'Checkout <errors>',
    filter: { category: 'errors' },
    condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal((await org.post('/api/events', { project, category: 'errors', title: 'Checkout failed', notify: true })).status, 201);
  await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
  const alert = await org.get(`/api/alerts/${created.body.id}`);
  assert.equal(alert.body.state, 'firing');
  // An alert's events are in its own category, "alerts" unless it names one.
  const feed = await org.get(`/api/events?project=${project}&category=alerts`);
  const event = feed.body.events.find((item: { title: string }) => item.title === 'Alert firing: Checkout <errors>');
  assert.ok(event, JSON.stringify(feed.body));
  return { alertId: created.body.id, event };
}

describe("an alert's mail", () => {
  it('to a destination: the time in the installation zone, the alert by name with its link and a mute link, no alert tag', async (tc) => {
    const org = await t.org();
    const project = await org.project('Web shop');
    const to = address();
    assert.equal((await org.post(`/api/projects/${project}/destinations`, { name: 'Ops mail', url: `mailto:${to}` })).status, 201);
    worker(tc);
    const { alertId, event } = await fire(org, project);
    const mails = await smtp.waitForMailTo(to, 2);
    const mail = mails.find((item) => item.parsed.subject === '[Web shop] Alert firing: Checkout <errors>');
    assert.ok(mail, mails.map((item) => item.parsed.subject).join(' | '));
    const alertUrl = `${BASE}/app/p/${project}/alerts?alert=${alertId}`;
    const muteUrl = `${alertUrl}&mute=1`;

    const text = mail.parsed.text ?? '';
    assert.ok(text.includes(`Web shop · alerts · ${inWords(event.createdAt, ZONE)}`), text);
    assert.doesNotMatch(text, ISO, 'no ISO 8601 time');
    assert.ok(text.includes(`Alert “Checkout <errors>” (firing): ${alertUrl}\n`), text);
    assert.ok(text.includes(`Mute this alert: ${muteUrl}\n`), text);
    assert.ok(text.includes(`Open in Eventlog: ${BASE}/app/p/${project}?event=${event.id}`), text);
    assert.doesNotMatch(text, /alert: alt_|Tags:|state: firing/, 'the alert is named, not tagged');

    const html = String(mail.parsed.html);
    assert.ok(html.includes(`<a href="${alertUrl}">Checkout &lt;errors&gt;</a> (firing)`), html);
    assert.ok(html.includes(`<a href="${muteUrl.replace('&', '&amp;')}">Mute this alert…</a>`), html);
    assert.ok(html.includes(`<a href="${alertUrl}" class="button">Open the alert</a>`), html);
    assert.ok(html.includes(`<time datetime="${event.createdAt}">${inWords(event.createdAt, ZONE)}</time>`), html);
    assert.doesNotMatch(html, /<th scope="row">(alert|state)<\/th>/);
    // The links are pages of the dashboard: sending the mail (and any scanner following it) muted nothing.
    assert.equal((await org.get(`/api/alerts/${alertId}`)).body.mutedUntil, null);

    // Any other event's mail tells its time in words too.
    const plain = mails.find((item) => item !== mail);
    assert.ok(plain, 'the event that set the alert off was mailed as well');
    assert.doesNotMatch(plain.parsed.text ?? '', ISO);
    assert.match(plain.parsed.text ?? '', /Web shop · errors · \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(Europe\/Paris\)/);
    assert.doesNotMatch(plain.parsed.text ?? '', /Mute this alert/);
  });

  it("in a member's email copy: the time in the member's own zone", async (tc) => {
    const org = await t.org();
    const project = await org.project('Web shop');
    const member = await signInAs(t, org);
    // Quiet hours name the member's zone; a window far from now, so nothing is held.
    const zone = 'Asia/Tokyo';
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
    const start = `${String((hour + 8) % 24).padStart(2, '0')}:00`;
    const end = `${String((hour + 8) % 24).padStart(2, '0')}:30`;
    const saved = await put(t, member, {
      projects: { [project]: 'alerts' },
      email: true,
      quietHours: { timeZone: zone, start, end, days: [1, 2, 3, 4, 5, 6, 7] },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    worker(tc);
    const queue = new MailQueue({ sql: t.services.sql, mailer: t.services.mailer, log: t.services.log }, { pollIntervalMs: 100 });
    queue.start();
    tc.after(() => queue.stop());
    const { alertId, event } = await fire(org, project);
    const [mail] = await smtp.waitForMailTo(member.email);
    assert.ok(mail);
    const text = mail.parsed.text ?? '';
    assert.ok(text.includes(`Web shop · alerts · ${inWords(event.createdAt, zone)}`), text);
    assert.doesNotMatch(text, ISO);
    assert.ok(text.includes(`Mute this alert: ${BASE}/app/p/${project}/alerts?alert=${alertId}&mute=1`), text);
  });
});

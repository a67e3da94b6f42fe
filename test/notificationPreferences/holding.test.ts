// Notification preferences at fan-out (extensions.md, "Notification preferences"): levels per
// project, the email copy, notifications held during quiet hours and snoozes (durably, across a
// restart of the loop, summarised once by two loops on one database), and critical alerts that
// get through. The clock is injected into the fan-out and the summary loop; mail goes to a real
// SMTP server.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { fanOutBatch } from '../../src/features/delivery/fanOutBatch.ts';
import { composeDigest } from '../../src/features/digests/composeDigest.ts';
import { MailQueue } from '../../src/features/email/mailQueue.ts';
import { HeldSummaries } from '../../src/features/notificationPreferences/heldSummaries.ts';
import { type Browser, signInAs } from '../dashboard/signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type SmtpTestServer, startSmtpServer } from '../email/support.ts';
import { alertEvent, put, subscribe } from './support.ts';

const BASE = 'https://events.example.com';
const PUSH_ORIGIN = 'https://127.0.0.1:9';
const smtp: SmtpTestServer = await startSmtpServer();
after(() => smtp.close());
// The fan-out and the summary loop take every organization's rows: a database of the file's own.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: BASE, SMTP_URL: smtp.url, SMTP_FROM: 'events@example.com' }, { ownDatabase: true });

const fanOut = (now: Date) => fanOutBatch(t.services.sql, { limit: 500, maxAttempts: 3, baseUrl: BASE, timeZone: 'UTC', now });
const loop = (now: () => Date, sql = t.services.sql) => new HeldSummaries({ sql, baseUrl: BASE, log: t.services.log, queued: () => undefined, now }, 3_600_000);

async function notify(org: TestOrg, project: string, title = 'Order') {
  const reply = await org.post('/api/events', { project, category: 'orders', title, notify: true });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

const pushJobs = (org: TestOrg) =>
  t.services.sql<{ subscriptionId: string; payload: string }[]>`
    SELECT subscription_id AS "subscriptionId", payload FROM push_jobs WHERE organization_id = ${org.id} ORDER BY created_at, id`;
const heldRows = (org: TestOrg) =>
  t.services.sql<{ userId: string; title: string; releasedAt: Date | null }[]>`
    SELECT user_id AS "userId", title, released_at AS "releasedAt" FROM held_notifications WHERE organization_id = ${org.id} ORDER BY held_at, id`;
const mailJobs = (org: TestOrg) =>
  t.services.sql<{ kind: string; recipients: string[]; subject: string }[]>`SELECT kind, recipients, subject FROM mail_jobs WHERE organization_id = ${org.id}`;

async function member(org: TestOrg, project: string, browsers = 1): Promise<Browser> {
  const browser = await signInAs(t, org);
  for (let i = 0; i < browsers; i++) await subscribe(browser, project, PUSH_ORIGIN);
  return browser;
}

describe('levels and the email copy', () => {
  it("all, alerts and none; the email copy goes to the member's address through the mail queue", async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const all = await member(org, project);
    const alertsOnly = await member(org, project);
    const none = await member(org, project);
    assert.equal((await put(t, alertsOnly, { projects: { [project]: 'alerts' } })).status, 200);
    assert.equal((await put(t, none, { projects: { [project]: 'none' }, email: true })).status, 200);
    assert.equal((await put(t, all, { email: true })).status, 200);
    await notify(org, project, 'Plain order');
    await fanOut(new Date());
    const subscriptionsOf = async (browser: Browser) =>
      (await t.services.sql<{ id: string }[]>`SELECT id FROM push_subscriptions WHERE organization_id = ${org.id} AND user_id = ${browser.userId}`).map(
        (r) => r.id,
      );
    const plain = await pushJobs(org);
    assert.deepEqual(
      plain.map((j) => j.subscriptionId),
      await subscriptionsOf(all),
    );
    assert.deepEqual(
      (await mailJobs(org)).map((m) => m.recipients),
      [[all.email]],
    );

    await alertEvent(t, org, project, false);
    await fanOut(new Date());
    const afterAlert = (await pushJobs(org))
      .slice(1)
      .map((j) => j.subscriptionId)
      .sort();
    assert.deepEqual(afterAlert, [...(await subscriptionsOf(all)), ...(await subscriptionsOf(alertsOnly))].sort());

    const queue = new MailQueue({ sql: t.services.sql, mailer: t.services.mailer, log: t.services.log }, { pollIntervalMs: 100 });
    queue.start();
    tc.after(() => queue.stop());
    const mails = await smtp.waitForMailTo(all.email, 2);
    assert.deepEqual(
      mails.map((m) => m.parsed.subject).sort(),
      ['Alert firing: errors', 'Plain order'].sort().map((s) => mails.find((m) => m.parsed.subject?.includes(s))?.parsed.subject),
    );
    assert.equal(smtp.to(none.email).length, 0);
  });

  it('"alerts" with the email copy: a batch of plain events sends nothing; a batch mixing them with an alert\'s sends the alert\'s alone', async () => {
    const org = await t.org();
    const project = await org.project();
    const alertsOnly = await member(org, project);
    assert.equal((await put(t, alertsOnly, { projects: { [project]: 'alerts' }, email: true })).status, 200);
    await notify(org, project, 'Plain order 1');
    await fanOut(new Date());
    assert.equal((await pushJobs(org)).length, 0);
    assert.equal((await mailJobs(org)).length, 0);

    await notify(org, project, 'Plain order 2');
    await alertEvent(t, org, project, false, 'Alert firing: refunds');
    await notify(org, project, 'Plain order 3');
    await fanOut(new Date());
    assert.deepEqual(
      (await pushJobs(org)).map((job) => JSON.parse(job.payload).title),
      ['Alert firing: refunds'],
    );
    assert.deepEqual(
      (await mailJobs(org)).map((mail) => [mail.recipients, mail.subject]),
      [[[alertsOnly.email], '[Test project] Alert firing: refunds']],
    );
  });
});

describe('quiet hours, snoozes and summaries', () => {
  it("a snoozed member's notifications are held, one row per event however many browsers, then one summary per medium", async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const browser = await member(org, project, 2);
    const now = new Date();
    const until = Math.floor(now.getTime() / 1000) + 3600;
    assert.equal((await put(t, browser, { snoozedUntil: until, email: true })).status, 200);
    for (let i = 1; i <= 12; i++) await notify(org, project, `Order ${i}`);
    await fanOut(now);
    assert.equal((await pushJobs(org)).length, 0);
    assert.equal((await mailJobs(org)).length, 0);
    assert.equal((await heldRows(org)).length, 12);

    const clock = { now };
    const summaries = loop(() => clock.now);
    assert.equal(await summaries.runOnce(), 0, 'still snoozed');
    clock.now = new Date((until + 1) * 1000);
    assert.equal(await summaries.runOnce(), 1);
    assert.equal(await summaries.runOnce(), 0, 'once');
    const jobs = await pushJobs(org);
    assert.equal(jobs.length, 2, 'one per browser');
    const payload = JSON.parse(jobs[0]!.payload) as { title: string; body: string; url: string };
    assert.equal(payload.title, '12 notifications while you were away');
    assert.deepEqual(payload.body.split('\n'), [
      'Order 12',
      'Order 11',
      'Order 10',
      'Order 9',
      'Order 8',
      'Order 7',
      'Order 6',
      'Order 5',
      'Order 4',
      'Order 3',
    ]);
    assert.equal(payload.url, `${BASE}/app`);
    assert.ok((await heldRows(org)).every((row) => row.releasedAt !== null));

    const queue = new MailQueue({ sql: t.services.sql, mailer: t.services.mailer, log: t.services.log }, { pollIntervalMs: 100 });
    queue.start();
    tc.after(() => queue.stop());
    const [mail] = await smtp.waitForMailTo(browser.email, 1);
    assert.equal(mail!.parsed.subject, '12 notifications while you were away');
    assert.match(mail!.parsed.text ?? '', /Order 12[\s\S]*Order 3/);
    assert.doesNotMatch(mail!.parsed.text ?? '', /Order 2\b/);
    assert.match(mail!.parsed.text ?? '', /https:\/\/events\.example\.com\/app/);
  });

  it('lifting the snooze (null) releases at the next pass; held rows survive a new loop (a restart)', async () => {
    const org = await t.org();
    const project = await org.project();
    const browser = await member(org, project);
    const now = new Date();
    await put(t, browser, { snoozedUntil: Math.floor(now.getTime() / 1000) + 86_400 });
    await notify(org, project, 'While away');
    await fanOut(now);
    const first = loop(() => now);
    assert.equal(await first.runOnce(), 0);
    await first.stop();
    await put(t, browser, { snoozedUntil: null });
    const restarted = loop(() => now);
    assert.equal(await restarted.runOnce(), 1);
    assert.equal(JSON.parse((await pushJobs(org))[0]!.payload).title, '1 notification while you were away');
    // The member's digest lists what the summary held.
    const mail = await composeDigest(t.services.sql, {
      organizationId: org.id,
      userId: browser.userId,
      settings: { frequency: 'daily', hour: 8, timeZone: 'UTC' },
      from: new Date(now.getTime() - 86_400_000),
      to: new Date(now.getTime() + 1000),
      baseUrl: BASE,
      preview: false,
    });
    assert.match(mail!.text, /Held while you were away: 1 notification\n- While away/);
  });

  it('changing quiet hours so that now is outside them releases at the next pass', async () => {
    const org = await t.org();
    const project = await org.project();
    const browser = await member(org, project);
    const allDay = { timeZone: 'UTC', start: '00:00', end: '00:00', days: [1, 2, 3, 4, 5, 6, 7] };
    assert.equal((await put(t, browser, { quietHours: allDay })).status, 200);
    await notify(org, project, 'Quiet order');
    await fanOut(new Date());
    const summaries = loop(() => new Date());
    assert.equal(await summaries.runOnce(), 0);
    assert.equal((await put(t, browser, { quietHours: null })).status, 200);
    assert.equal(await summaries.runOnce(), 1);
    assert.equal(JSON.parse((await pushJobs(org))[0]!.payload).title, '1 notification while you were away');
  });

  it('two loops on one database send one summary', async () => {
    const org = await t.org();
    const project = await org.project();
    const browser = await member(org, project);
    const now = new Date();
    await put(t, browser, { snoozedUntil: Math.floor(now.getTime() / 1000) + 60 });
    for (let i = 0; i < 3; i++) await notify(org, project);
    await fanOut(now);
    const later = () => new Date(now.getTime() + 120_000);
    const { createClient } = await import('../../src/db/client.ts');
    const otherSql = createClient(t.databaseUrl, { max: 2 });
    try {
      const sent = await Promise.all([loop(later).runOnce(), loop(later, otherSql).runOnce(), loop(later).runOnce()]);
      assert.equal(
        sent.reduce((a, b) => a + b, 0),
        1,
      );
    } finally {
      await otherSql.end();
    }
    assert.equal((await pushJobs(org)).length, 1);
  });

  it('quiet hours across midnight: held inside the window (Friday 22:00 to Saturday 07:00, Paris), summary after', async () => {
    const org = await t.org();
    const project = await org.project();
    const browser = await member(org, project);
    assert.equal((await put(t, browser, { quietHours: { timeZone: 'Europe/Paris', start: '22:00', end: '07:00', days: [5] } })).status, 200);
    // Friday 2026-06-05 23:30 in Paris (UTC+2) is 21:30Z.
    await notify(org, project, 'Late order');
    await fanOut(new Date('2026-06-05T21:30:00Z'));
    assert.equal((await heldRows(org)).length, 1);
    const clock = { now: new Date('2026-06-06T04:59:00Z') };
    const summaries = loop(() => clock.now);
    assert.equal(await summaries.runOnce(), 0, 'Saturday 06:59 is still quiet');
    clock.now = new Date('2026-06-06T05:00:00Z');
    assert.equal(await summaries.runOnce(), 1, 'Saturday 07:00 ends it');
    // Saturday 23:30 is not quiet: only Friday's window is listed.
    await notify(org, project, 'Saturday order');
    await fanOut(new Date('2026-06-06T21:30:00Z'));
    assert.equal((await pushJobs(org)).length, 2);
  });

  it('critical alerts get through quiet hours and snoozes; an ordinary alert waits; "none" stops both', async () => {
    const org = await t.org();
    const project = await org.project();
    const snoozed = await member(org, project);
    const off = await member(org, project);
    await put(t, snoozed, { snoozedUntil: Math.floor(Date.now() / 1000) + 3600 });
    await put(t, off, { projects: { [project]: 'none' }, snoozedUntil: Math.floor(Date.now() / 1000) + 3600 });
    await alertEvent(t, org, project, true, 'Alert firing: critical');
    await alertEvent(t, org, project, false, 'Alert firing: ordinary');
    await fanOut(new Date());
    const jobs = await pushJobs(org);
    assert.equal(jobs.length, 1);
    assert.equal(JSON.parse(jobs[0]!.payload).title, 'Alert firing: critical');
    assert.deepEqual(
      (await heldRows(org)).map((r) => [r.userId, r.title]),
      [[snoozed.userId, 'Alert firing: ordinary']],
    );
  });
});

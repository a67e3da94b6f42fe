// Digests (extensions.md, "Email"): settings per member (a session only), the preview, and the
// schedule: each digest enqueued once per member and period with several schedulers at once, and
// sent once through the durable mail queue across a restart. Against a real SMTP server.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { evaluateOrganization } from '../../src/features/alerts/evaluateOrganization.ts';
import { DigestScheduler } from '../../src/features/digests/digestScheduler.ts';
import { MailQueue } from '../../src/features/email/mailQueue.ts';
import { type Browser, signInAs } from '../signedIn.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type SmtpTestServer, startSmtpServer } from './support.ts';
import { sleep } from '../wait.ts';

const smtp: SmtpTestServer = await startSmtpServer();
after(() => smtp.close());
// The schedulers take every organization's due digests: a database of the file's own.
const t = useTestApp({ BASE_URL: 'https://events.example.com', SMTP_URL: smtp.url, SMTP_FROM: 'digest@example.com' }, { ownDatabase: true });

const put = (member: Browser, body: unknown) =>
  t.request({ method: 'PUT', url: '/api/me/digest', body, headers: { cookie: member.cookie, 'x-csrf-token': member.csrfToken } });

function scheduler(sql = t.services.sql) {
  return new DigestScheduler({ sql, baseUrl: 'https://events.example.com', log: t.services.log, enqueued: () => undefined }, 3_600_000);
}

function mailQueue(tc: { after(fn: () => Promise<void>): void }) {
  const queue = new MailQueue({ sql: t.services.sql, mailer: t.services.mailer, log: t.services.log }, { pollIntervalMs: 100 });
  queue.start();
  tc.after(() => queue.stop());
  return queue;
}

async function notify(org: TestOrg, project: string, fields: Record<string, unknown>) {
  const reply = await org.post('/api/events', { project, category: 'orders', title: 'Order', ...fields });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

describe('digest settings', () => {
  it('default off; PUT sets frequency, hour and time zone, GET reads them back', async () => {
    const member = await signInAs(t, await t.org());
    const initial = await member.get('/api/me/digest');
    assert.equal(initial.status, 200);
    assert.deepEqual(initial.body, { frequency: 'off', hour: 8, timeZone: 'UTC' });
    const saved = await put(member, { frequency: 'weekly', hour: 7, timeZone: 'Europe/Paris' });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body, { frequency: 'weekly', hour: 7, timeZone: 'Europe/Paris' });
    assert.deepEqual((await member.get('/api/me/digest')).body, { frequency: 'weekly', hour: 7, timeZone: 'Europe/Paris' });
    const other = await signInAs(t, await t.org());
    assert.equal((await other.get('/api/me/digest')).body.frequency, 'off', 'each member has their own');
  });

  it('the next digest is due at hour:00 in the time zone, on Mondays for weekly', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    await put(member, { frequency: 'weekly', hour: 7, timeZone: 'Europe/Paris' });
    const [row] = await t.services.sql<{ due: Date }[]>`
      SELECT next_due_at AS due FROM digest_settings WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      row!.due,
    );
    assert.equal(local, 'Mon 07:00');
    assert.ok(row!.due.getTime() > Date.now() && row!.due.getTime() <= Date.now() + 7 * 86_400_000);
    await put(member, { frequency: 'off', hour: 7, timeZone: 'Europe/Paris' });
    const [off] = await t.services.sql<{ due: Date | null }[]>`
      SELECT next_due_at AS due FROM digest_settings WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    assert.equal(off?.due, null);
  });

  it('400 for a bad frequency, hour or time zone; nothing changes', async () => {
    const member = await signInAs(t, await t.org());
    await put(member, { frequency: 'daily', hour: 9, timeZone: 'UTC' });
    for (const body of [
      { frequency: 'monthly', hour: 9, timeZone: 'UTC' },
      { frequency: 'daily', hour: 24, timeZone: 'UTC' },
      { frequency: 'daily', hour: -1, timeZone: 'UTC' },
      { frequency: 'daily', hour: 1.5, timeZone: 'UTC' },
      { frequency: 'daily', hour: 9, timeZone: 'Mars/Olympus_Mons' },
      { frequency: 'daily', hour: 9, timeZone: '' },
      { frequency: 'daily', hour: 9 },
      { frequency: 'daily', hour: 9, timeZone: 'UTC', extra: 1 },
    ]) {
      const reply = await put(member, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(typeof reply.body.error, 'string');
    }
    assert.deepEqual((await member.get('/api/me/digest')).body, { frequency: 'daily', hour: 9, timeZone: 'UTC' });
  });

  it('an API key gets 403 on every digest route', async () => {
    const org = await t.org();
    assert.equal((await org.get('/api/me/digest')).status, 403);
    const putWithKey = await t.request({
      method: 'PUT',
      url: '/api/me/digest',
      body: { frequency: 'off', hour: 1, timeZone: 'UTC' },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(putWithKey.status, 403);
    assert.equal((await org.post('/api/me/digest/send')).status, 403);
  });
});

describe('the digest', () => {
  it('"Send me one now": counts per category with the change, notify titles (latest 20), insights, project links', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    const shop = await org.project('Web shop');
    const blog = await org.project('Blog <b>');
    const now = Date.now() / 1000;
    for (let i = 0; i < 3; i++) await notify(org, shop, { category: 'orders', created_at: now - 3600 * (i + 1) });
    await notify(org, shop, { category: 'orders', created_at: now - 86_400 - 3600 });
    // As many refunds as the day before: "no change" in words, not "±0 (+0%)" inside parentheses.
    await notify(org, shop, { category: 'refunds', created_at: now - 7200 });
    await notify(org, shop, { category: 'refunds', created_at: now - 86_400 - 7200 });
    for (let i = 0; i < 25; i++)
      await notify(org, shop, { category: 'payments', title: `Payment failed #${i}`, notify: true, created_at: now - 60 * (25 - i) });
    await notify(org, blog, { category: 'posts', title: '<script>x</script>', notify: true, created_at: now - 60 });
    assert.equal((await org.post('/api/insight', { project: shop, title: 'Revenue', value: '1,234 €' })).status, 200);

    const reply = await member.post('/api/me/digest/send');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { ok: true });
    const [mail] = await smtp.waitForMailTo(member.email);
    assert.ok(mail);
    assert.match(mail.parsed.subject ?? '', /digest/i);
    const text = mail.parsed.text ?? '';
    assert.match(text, /== Web shop ==/);
    assert.match(text, /orders: 3 \(\+2, \+200%\)/);
    assert.match(text, /payments: 25 \(new\)/);
    assert.match(text, /refunds: 1 \(no change\)/);
    assert.doesNotMatch(text, /±|\+0%|\([^()]*\([^()]*\)[^()]*\)/, 'no parentheses inside parentheses');
    assert.match(text, /Notify events: 25/);
    assert.match(text, /Payment failed #24/);
    assert.match(text, /Payment failed #5/);
    assert.doesNotMatch(text, /Payment failed #4\b/, 'only the latest 20 titles');
    assert.match(text, /Revenue: 1,234 €/);
    assert.ok(text.includes(`https://events.example.com/app/p/${shop}`));
    assert.ok(text.includes(`https://events.example.com/app/p/${blog}`));
    const html = String(mail.parsed.html);
    assert.ok(html.includes(`href="https://events.example.com/app/p/${shop}"`));
    assert.match(html, /Blog &lt;b&gt;/);
    assert.match(html, /&lt;script&gt;x&lt;\/script&gt;/);
    assert.doesNotMatch(html, /<script|<img/);
  });

  it('a digest lists the alert transitions of the period, per project', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    const shop = await org.project('Web shop');
    const created = await org.post(`/api/projects/${shop}/alerts`, {
      name: 'Payments failing',
      filter: { category: 'payments' },
      condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await notify(org, shop, { category: 'payments', title: 'Declined' });
    await evaluateOrganization(t.services.sql, org.id, t.services.config.timeZone);
    assert.equal((await org.get(`/api/alerts/${created.body.id}`)).body.state, 'firing');

    assert.equal((await member.post('/api/me/digest/send')).status, 200);
    const [mail] = await smtp.waitForMailTo(member.email);
    assert.match(mail?.parsed.text ?? '', /Payments failing: firing at /);
    // The alert by name, linked to it on its project's Alerts tab.
    const alertUrl = `https://events.example.com/app/p/${shop}/alerts?alert=${created.body.id}`;
    assert.ok(String(mail?.parsed.html).includes(`<a href="${alertUrl}">Payments failing</a>: <strong>firing</strong>`), String(mail?.parsed.html));
  });

  it('each digest is enqueued once per member and period, with several schedulers at once', async (tc) => {
    const org = await t.org();
    const member = await signInAs(t, org);
    const project = await org.project('Ops');
    await notify(org, project, { title: 'yesterday', notify: true, created_at: Date.now() / 1000 - 7200 });
    await put(member, { frequency: 'daily', hour: 6, timeZone: 'Asia/Tokyo' });
    // The digest's moment has come.
    await t.services.sql`
      UPDATE digest_settings SET next_due_at = now() - interval '1 minute' WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    const counts = await Promise.all([scheduler().runOnce(), scheduler().runOnce(), scheduler().runOnce()]);
    assert.equal(counts.reduce((a, b) => a + b, 0) >= 1, true);
    const [queued] = await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM mail_jobs WHERE organization_id = ${org.id}`;
    assert.equal(queued?.n, 1, 'one digest in the queue');
    assert.equal(await scheduler().runOnce(), 0, 'nothing more is due');
    const [row] = await t.services.sql<{ due: Date }[]>`
      SELECT next_due_at AS due FROM digest_settings WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    assert.ok(row!.due.getTime() > Date.now(), 'the next digest is in the future');

    mailQueue(tc);
    const [mail] = await smtp.waitForMailTo(member.email);
    assert.match(mail?.parsed.text ?? '', /yesterday/);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(400);
    assert.equal(smtp.to(member.email).length, 1);
    const [left] = await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM mail_jobs WHERE organization_id = ${org.id}`;
    assert.equal(left?.n, 0);
  });

  it('a digest queued before a restart is sent once by the next process; 4xx is retried', async (tc) => {
    const org = await t.org();
    const member = await signInAs(t, org);
    await put(member, { frequency: 'weekly', hour: 23, timeZone: 'America/New_York' });
    await t.services.sql`
      UPDATE digest_settings SET next_due_at = now() - interval '1 minute' WHERE organization_id = ${org.id} AND user_id = ${member.userId}`;
    await scheduler().runOnce();
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(200);
    assert.equal(smtp.to(member.email).length, 0, 'queued, not yet sent: no queue runs');
    smtp.answers = [{ code: 451 }, 250];
    smtp.offered = 0;
    tc.after(() => {
      smtp.answers = [250];
    });
    mailQueue(tc);
    const [mail] = await smtp.waitForMailTo(member.email);
    assert.match(mail?.parsed.subject ?? '', /weekly/);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(smtp.to(member.email).length, 1);
  });

  it('a member deleted with a digest due gets none', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    await put(member, { frequency: 'daily', hour: 1, timeZone: 'UTC' });
    await t.services.sql`DELETE FROM users WHERE organization_id = ${org.id} AND id = ${member.userId}`;
    const [left] = await t.services.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM digest_settings WHERE organization_id = ${org.id}`;
    assert.equal(left?.n, 0);
  });
});

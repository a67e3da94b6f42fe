// Email destinations (extensions.md, "Email") against a real SMTP server with authentication:
// what a mail client sees, retries on 4xx and dropped connections, no retry on 5xx, the attempt
// log's SMTP codes, automatic disabling, replay, category routing, Test, and restarts.
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { claimDueDeliveries } from '../../src/features/delivery/webhookQueries.ts';
import { startWorker } from '../destinations/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type SmtpAnswer, type SmtpTestServer, startSmtpServer } from './support.ts';
import { sleep, waitUntil } from '../wait.ts';

// Started before the app, whose settings name it.
const smtp: SmtpTestServer = await startSmtpServer();
const env: NodeJS.ProcessEnv = { BASE_URL: 'https://events.example.com', SMTP_FROM: 'Eventlog <alerts@example.com>', SMTP_URL: smtp.url };
after(() => smtp.close());
const t = useTestApp(env, { ownDatabase: true });

let unique = 0;
const address = (name = 'ops') => `${name}-${Date.now()}-${++unique}@example.org`;

async function setup(tc: TestContext, answers: SmtpAnswer[] = [250], extra: Record<string, unknown> = {}) {
  smtp.answers = answers;
  smtp.offered = 0;
  const org = await t.org();
  const project = await org.project('Web shop');
  const to = address();
  const created = await org.post(`/api/projects/${project}/destinations`, { name: 'Ops mail', url: `mailto:${to}`, ...extra });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  tc.after(() => {
    smtp.answers = [250];
  });
  return { org, project, to, destination: created.body };
}

function worker(tc: TestContext, options = {}) {
  const started = startWorker(t, options);
  tc.after(() => started.stop());
  return started;
}

async function notify(org: TestOrg, project: string, fields: Record<string, unknown> = {}) {
  const reply = await org.post('/api/events', { project, category: 'payments', title: 'Payment failed', notify: true, ...fields });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body;
}

async function deliveries(org: TestOrg, destinationId: string) {
  const reply = await org.get(`/api/destinations/${destinationId}/deliveries`);
  assert.equal(reply.status, 200);
  return reply.body.deliveries as Array<{
    id: string;
    eventId: number;
    webhookId: string;
    status: string;
    attempts: Array<{ status: number | null; error: string | null }>;
  }>;
}

async function settled(org: TestOrg, destinationId: string, count = 1) {
  await waitUntil(
    async () => {
      const log = await deliveries(org, destinationId);
      return log.length >= count && log.every((d) => d.status !== 'pending');
    },
    { timeoutMs: 10_000, message: 'deliveries to settle' },
  );
  return deliveries(org, destinationId);
}

describe('creating email destinations', () => {
  it('a mailto: url takes the format "email", given or left out, and has no secret', async () => {
    const org = await t.org();
    const project = await org.project();
    const implicit = await org.post(`/api/projects/${project}/destinations`, { name: 'a', url: 'mailto:a@example.com' });
    assert.equal(implicit.status, 201);
    assert.equal(implicit.body.format, 'email');
    assert.equal(implicit.body.url, 'mailto:a@example.com');
    assert.equal(implicit.body.secret, null);
    const explicit = await org.post(`/api/projects/${project}/destinations`, {
      name: 'b',
      url: 'mailto:a@example.com,b@example.com, c@example.com',
      format: 'email',
      categories: ['payments'],
    });
    assert.equal(explicit.status, 201);
    assert.equal(explicit.body.format, 'email');
    assert.deepEqual(explicit.body.categories, ['payments']);
  });

  it('400 for a mismatched format, a bad address list, or more than 10 addresses; nothing is created', async () => {
    const org = await t.org();
    const project = await org.project();
    const ten = Array.from({ length: 10 }, (_, i) => `u${i}@example.com`).join(',');
    const eleven = `${ten},u10@example.com`;
    assert.equal((await org.post(`/api/projects/${project}/destinations`, { name: 'ok', url: `mailto:${ten}` })).status, 201);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['webhook format with mailto', { url: 'mailto:a@example.com', format: 'json' }],
      ['text format with mailto', { url: 'mailto:a@example.com', format: 'text' }],
      ['email format with https', { url: 'https://example.com/hook', format: 'email' }],
      ['no address', { url: 'mailto:' }],
      ['empty address in the list', { url: 'mailto:a@example.com,,b@example.com' }],
      ['not an address', { url: 'mailto:nobody' }],
      ['eleven addresses', { url: `mailto:${eleven}` }],
      ['mailto fields', { url: 'mailto:a@example.com?subject=hi' }],
      ['a web url without a format', { url: 'https://example.com/hook' }],
    ];
    for (const [label, body] of bad) {
      const reply = await org.post(`/api/projects/${project}/destinations`, { name: 'n', ...body });
      assert.equal(reply.status, 400, label);
      assert.equal(typeof reply.body.error, 'string', label);
    }
    const list = await org.get(`/api/projects/${project}/destinations`);
    assert.equal(list.body.length, 1);
  });

  it('PATCH keeps the kind: an email destination takes another mailto:, never a web url', async () => {
    const org = await t.org();
    const project = await org.project();
    const created = await org.post(`/api/projects/${project}/destinations`, { name: 'm', url: 'mailto:a@example.com' });
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/api/destinations/${created.body.id}`, body, headers: { authorization: `Bearer ${org.key}` } });
    assert.equal((await patch({ url: 'https://example.com/hook' })).status, 400);
    const changed = await patch({ url: 'mailto:b@example.com,c@example.com' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.url, 'mailto:b@example.com,c@example.com');
    const hook = await org.post(`/api/projects/${project}/destinations`, { name: 'w', url: 'https://example.com/h', format: 'text' });
    const hookPatch = await t.request({
      method: 'PATCH',
      url: `/api/destinations/${hook.body.id}`,
      body: { url: 'mailto:a@example.com' },
      headers: { authorization: `Bearer ${org.key}` },
    });
    assert.equal(hookPatch.status, 400);
  });

  it('the private-address rule does not apply: the SMTP server may be on 127.0.0.1', async (tc) => {
    const { org, project, to, destination } = await setup(tc);
    worker(tc);
    await notify(org, project);
    await smtp.waitForMailTo(to);
    assert.equal((await settled(org, destination.id))[0]?.status, 'succeeded');
  });
});

describe('the mail a notify event becomes', () => {
  it('subject, sender, recipients, both parts, the url, the tags and the dashboard link', async (tc) => {
    const { org, project, to } = await setup(tc);
    const second = address('second');
    const created = await org.post(`/api/projects/${project}/destinations`, { name: 'two', url: `mailto:${second}` });
    assert.equal(created.status, 201);
    worker(tc);
    const event = await notify(org, project, {
      description: 'Card **declined** for order `#42`\n\n- retry tomorrow\n- [see the order](https://shop.example.com/o/42)',
      url: 'https://shop.example.com/orders/42',
      tags: { plan: 'pro', amount: 42 },
      icon: '💳',
    });
    const [mail] = await smtp.waitForMailTo(to);
    assert.ok(mail);
    const { parsed } = mail;
    assert.equal(parsed.subject, '[Web shop] Payment failed');
    assert.equal(parsed.from?.value[0]?.address, 'alerts@example.com');
    assert.equal(parsed.from?.value[0]?.name, 'Eventlog');
    assert.deepEqual(mail.to, [to]);
    assert.equal(mail.user, smtp.user, "the transport authenticated with the URL's user");
    assert.match(String(parsed.messageId), /^<msg_.+@events\.example\.com>$/);
    const dashboard = `https://events.example.com/app/p/${project}?event=${event.id}`;
    // The plain-text part.
    const text = parsed.text ?? '';
    assert.match(text, /Payment failed/);
    assert.match(text, /Card \*\*declined\*\* for order `#42`/);
    assert.match(text, /https:\/\/shop\.example\.com\/orders\/42/);
    assert.match(text, /plan: pro/);
    assert.match(text, /amount: 42/);
    assert.ok(text.includes(dashboard), text);
    // The HTML part: markup rendered, links kept, no remote images.
    const html = String(parsed.html);
    assert.match(html, /<strong>declined<\/strong>/);
    assert.match(html, /<code[^>]*>#42<\/code>/);
    assert.match(html, /<li>retry tomorrow<\/li>/);
    assert.match(html, /<a href="https:\/\/shop\.example\.com\/o\/42">see the order<\/a>/);
    assert.match(html, /<a href="https:\/\/shop\.example\.com\/orders\/42">/);
    assert.ok(html.includes(`href="${dashboard.replace('?', '?')}"`), 'the dashboard link');
    assert.match(html, /color-scheme/);
    assert.match(html, /<th scope="row">plan<\/th><td>pro<\/td>/);
    assert.doesNotMatch(html, /<img|<script|src=/i);
    assert.equal(smtp.to(second).length >= 1 || (await smtp.waitForMailTo(second)).length === 1, true);
  });

  it('event text can never put HTML into the mail', async (tc) => {
    const { org, project, to } = await setup(tc);
    worker(tc);
    await notify(org, project, {
      title: '<img src=x onerror=alert(1)> "quoted"',
      description: '<script>alert(1)</script> **<b>bold</b>** [x](javascript:alert(1))',
      url: 'javascript:alert(1)',
      tags: { '<k>': '<v onclick=1>' },
    });
    const [mail] = await smtp.waitForMailTo(to);
    const html = String(mail?.parsed.html);
    assert.doesNotMatch(html, /<script|<img|<b>|href="javascript/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /<strong>&lt;b&gt;bold&lt;\/b&gt;<\/strong>/);
    assert.match(html, /&lt;k&gt;/);
    assert.match(html, /&lt;v onclick=1&gt;/);
    assert.equal(mail?.parsed.subject, '[Web shop] <img src=x onerror=alert(1)> "quoted"');
  });

  it('routing by category: only the categories listed are mailed', async (tc) => {
    const { org, project, to } = await setup(tc, [250], { categories: ['payments'] });
    worker(tc);
    await notify(org, project, { category: 'deploys', title: 'Deployed' });
    await notify(org, project, { title: 'Paid' });
    const [mail] = await smtp.waitForMailTo(to);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(smtp.to(to).length, 1);
    assert.equal(mail?.parsed.subject, '[Web shop] Paid');
  });
});

describe('retries and the attempt log', () => {
  it('a 4xx reply is retried on the webhook schedule; the attempt status is the SMTP code', async (tc) => {
    const { org, project, to, destination } = await setup(tc, [{ code: 451 }, { code: 452 }, 250]);
    worker(tc);
    await notify(org, project);
    await smtp.waitForMailTo(to);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'succeeded');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [451, 452, 250],
    );
    assert.equal(smtp.to(to).length, 1);
  });

  it('a 5xx reply is final: one attempt, failed, with its code', async (tc) => {
    const { org, project, destination } = await setup(tc, [{ code: 550, message: 'mailbox unavailable' }]);
    worker(tc);
    await notify(org, project);
    const [delivery] = await settled(org, destination.id);
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(delivery?.status, 'failed');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [550],
    );
    assert.match(delivery?.attempts[0]?.error ?? '', /mailbox unavailable/);
    assert.equal(smtp.offered, 1);
  });

  it('4xx on every attempt ends failed after 3 attempts', async (tc) => {
    const { org, project, destination } = await setup(tc, [{ code: 421 }]);
    worker(tc);
    await notify(org, project);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'failed');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [421, 421, 421],
    );
  });

  it('a dropped connection is retried (status null), then delivered once', async (tc) => {
    const { org, project, to, destination } = await setup(tc, ['drop', 250]);
    worker(tc);
    await notify(org, project);
    await smtp.waitForMailTo(to);
    const [delivery] = await settled(org, destination.id);
    assert.equal(delivery?.status, 'succeeded');
    assert.equal(delivery?.attempts.length, 2);
    assert.equal(delivery?.attempts[0]?.status, null);
    assert.ok(delivery?.attempts[0]?.error);
    assert.equal(delivery?.attempts[1]?.status, 250);
    assert.equal(smtp.to(to).length, 1);
  });

  it('the destination shows the last SMTP status', async (tc) => {
    const { org, project, destination } = await setup(tc);
    worker(tc);
    await notify(org, project);
    await settled(org, destination.id);
    const list = await org.get(`/api/projects/${project}/destinations`);
    const row = list.body.find((d: { id: string }) => d.id === destination.id);
    assert.equal(row.lastStatus.ok, true);
    assert.equal(row.lastStatus.status, 250);
  });
});

describe('Test, replay and automatic disabling', () => {
  it('Test sends a sample mail once and answers with the SMTP code', async (tc) => {
    const { org, to, destination } = await setup(tc);
    const reply = await org.post(`/api/destinations/${destination.id}/test`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { ok: true, status: 250, error: null });
    const [mail] = await smtp.waitForMailTo(to);
    assert.equal(mail?.parsed.subject, '[Web shop] Test delivery from Eventlog');
    // A sample event is no event of the feed: the mail links to the project's feed.
    const feed = `https://events.example.com/app/p/${destination.projectId}`;
    assert.ok(mail?.parsed.text?.includes(`Open in Eventlog: ${feed}\n`), String(mail?.parsed.text));
    assert.ok(String(mail?.parsed.html).includes(`href="${feed}"`), 'the HTML part links to the feed');
    assert.doesNotMatch(`${mail?.parsed.text}${String(mail?.parsed.html)}`, /event=0/);
    smtp.answers = [{ code: 554 }];
    const refused = await org.post(`/api/destinations/${destination.id}/test`);
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.status, 554);
  });

  it('20 consecutive failed deliveries disable it; replay-failed mails them again with the same webhook-id', async (tc) => {
    const { org, project, to, destination } = await setup(tc, [{ code: 550 }]);
    worker(tc);
    for (let i = 0; i < 20; i++) await notify(org, project, { title: `Failure ${i}` });
    const failedLog = await settled(org, destination.id, 20);
    await waitUntil(
      async () => {
        const list = await org.get(`/api/projects/${project}/destinations`);
        return list.body[0].enabled === false;
      },
      { timeoutMs: 5000, message: 'the destination to be disabled' },
    );
    const list = await org.get(`/api/projects/${project}/destinations`);
    assert.match(list.body[0].disabledReason, /20 consecutive/);
    assert.match(list.body[0].disabledReason, /SMTP 550/);
    assert.equal((await org.post(`/api/destinations/${destination.id}/replay-failed`, { since: 0 })).status, 400);

    smtp.answers = [250];
    assert.equal((await org.post(`/api/destinations/${destination.id}/enable`)).status, 200);
    const replay = await org.post(`/api/destinations/${destination.id}/replay-failed`, { since: 0 });
    assert.deepEqual(replay.body, { queued: 20 });
    const mails = await smtp.waitForMailTo(to, 20);
    assert.deepEqual(new Set(mails.map((mail) => mail.parsed.subject)), new Set(Array.from({ length: 20 }, (_, i) => `[Web shop] Failure ${i}`)));
    const firstIds = new Set(failedLog.map((d) => d.webhookId));
    await waitUntil(async () => (await deliveries(org, destination.id)).every((d) => d.status === 'succeeded'), { timeoutMs: 10_000, message: 'the replays' });
    for (const delivery of await deliveries(org, destination.id)) assert.ok(firstIds.has(delivery.webhookId));
  });
});

describe('durability', () => {
  it('a restart between attempts loses nothing and mails once', async (tc) => {
    const { org, project, to, destination } = await setup(tc, [{ code: 450 }, 250]);
    const first = startWorker(t, { retryDelaysMs: [700, 700] });
    tc.after(() => first.stop());
    await notify(org, project);
    await waitUntil(async () => (await deliveries(org, destination.id))[0]?.attempts.length === 1, { timeoutMs: 5000, message: 'the first attempt' });
    await first.stop();
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(800);
    assert.equal(smtp.to(to).length, 0);
    worker(tc);
    await smtp.waitForMailTo(to);
    const [delivery] = await settled(org, destination.id);
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [450, 250],
    );
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(300);
    assert.equal(smtp.to(to).length, 1);
  });

  it('a process killed after claiming: another takes the mail over once its lease expires, and mails it once', async (tc) => {
    const { org, project, to, destination } = await setup(tc);
    const fanOutOnly = startWorker(t, { concurrency: 0 });
    await notify(org, project);
    await waitUntil(async () => (await deliveries(org, destination.id)).length === 1, { timeoutMs: 5000, message: 'the fan-out' });
    await fanOutOnly.stop();
    const leased = await claimDueDeliveries(t.services.sql, { limit: 100, leaseMs: 600, leaseToken: 'killed' });
    assert.ok(leased.some((delivery) => delivery.organizationId === org.id));
    const started = performance.now();
    worker(tc);
    worker(tc);
    await smtp.waitForMailTo(to);
    assert.ok(performance.now() - started >= 400, 'waited for the lease');
    // Negative check: nothing more may happen in this while; there is no event to wait for.
    await sleep(500);
    assert.equal(smtp.to(to).length, 1);
    assert.equal((await settled(org, destination.id))[0]?.attempts.length, 1);
  });
});

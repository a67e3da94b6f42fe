import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type Answer, type Receiver, startReceiver, startWorker } from './support.ts';
import { waitUntil } from '../wait.ts';

// Channels (extensions.md, "Channels"): each service gets the request its documentation
// describes, from a local server standing in for it.
const BASE = 'https://events.example.com';
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1', BASE_URL: BASE }, { ownDatabase: true });

interface Setup {
  org: TestOrg;
  project: string;
  receiver: Receiver;
  destination: { id: string; url: string };
}

async function setup(tc: TestContext, format: string, path: (origin: string) => string, answers: Answer[] = [200]): Promise<Setup> {
  const org = await t.org();
  const project = await org.project();
  const receiver = await startReceiver(answers);
  tc.after(() => receiver.close());
  const origin = `http://127.0.0.1:${receiver.port}`;
  const created = await org.post(`/api/projects/${project}/destinations`, { name: format, url: path(origin), format });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { org, project, receiver, destination: created.body };
}

function worker(tc: TestContext) {
  const started = startWorker(t);
  tc.after(() => started.stop());
}

const EVENT = {
  category: 'deploys',
  title: 'Deployed <v2>',
  icon: '🚀',
  description: 'Plan **pro** & <script>',
  tags: { region: 'eu' },
  notify: true,
};

async function notify(org: TestOrg, project: string, fields: Record<string, unknown> = {}) {
  const reply = await org.post('/api/events', { project, ...EVENT, ...fields });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body as { id: number };
}

async function log(org: TestOrg, destination: string) {
  return (await org.get(`/api/destinations/${destination}/deliveries`)).body.deliveries as Array<{
    status: string;
    attempts: Array<{ status: number | null; error: string | null }>;
  }>;
}

const link = (project: string, id: number) => `${BASE}/app/p/${project}?event=${id}`;

describe("channels: each service's request", () => {
  it('telegram: POST sendMessage without the query, HTML text, thread id, token masked', async (tc) => {
    const s = await setup(tc, 'telegram', (o) => `${o}/bot123:SECRET/sendMessage?chat_id=-100&message_thread_id=7`);
    assert.equal(s.destination.url, `http://127.0.0.1:${s.receiver.port}/bot***/sendMessage?chat_id=-100&message_thread_id=7`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/bot123:SECRET/sendMessage');
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.match(String(request?.headers['eventlog-delivery']), /^[a-z0-9]+\.[a-z0-9]+$/);
    const body = JSON.parse(request.body);
    assert.deepEqual(Object.keys(body), ['chat_id', 'text', 'parse_mode', 'message_thread_id']);
    assert.equal(body.chat_id, '-100');
    assert.equal(body.parse_mode, 'HTML');
    assert.equal(body.message_thread_id, 7);
    assert.equal(body.text, `<b>🚀 Deployed &lt;v2&gt;</b>\n\nPlan <b>pro</b> &amp; &lt;script&gt;\n\nregion: eu\n\n${link(s.project, event.id)}`);
  });

  it('telegram: a long description is cut to 4,096 characters ending with …, its HTML balanced', async (tc) => {
    const s = await setup(tc, 'telegram', (o) => `${o}/botT/sendMessage?chat_id=1`);
    worker(tc);
    await notify(s.org, s.project, { description: `**${'a&b '.repeat(3000)}end**`, tags: null });
    const [request] = await s.receiver.waitFor(1);
    const text = JSON.parse(request!.body).text as string;
    assert.ok(text.length <= 4096, `${text.length}`);
    assert.ok(text.endsWith('</b>…'), text.slice(-20));
  });

  it('ntfy: POST to the server base, topic in the body, Basic from the user-info, markdown', async (tc) => {
    const s = await setup(tc, 'ntfy', (o) => `${o.replace('http://', 'http://alice:pa%20ss@')}/sub/alerts`);
    assert.equal(s.destination.url, `http://***@127.0.0.1:${s.receiver.port}/sub/alerts`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/sub');
    assert.equal(request?.headers.authorization, `Basic ${Buffer.from('alice:pa ss').toString('base64')}`);
    const body = JSON.parse(request.body);
    assert.deepEqual(Object.keys(body), ['topic', 'title', 'message', 'click', 'markdown']);
    assert.equal(body.topic, 'alerts');
    assert.equal(body.title, '🚀 Deployed <v2>');
    assert.equal(body.click, link(s.project, event.id));
    assert.equal(body.markdown, true);
    assert.match(body.message, /^Plan \*\*pro\*\* & \\<script\\>/);
  });

  it('ntfy: ?token= becomes a Bearer header and never leaves in the URL', async (tc) => {
    const s = await setup(tc, 'ntfy', (o) => `${o}/alerts?token=tk_1`);
    assert.equal(s.destination.url, `http://127.0.0.1:${s.receiver.port}/alerts?token=***`);
    worker(tc);
    await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.url, '/');
    assert.equal(request?.headers.authorization, 'Bearer tk_1');
  });

  it('pushover: a form to messages.json with token, user, device, html=1 and the link', async (tc) => {
    const s = await setup(tc, 'pushover', (o) => `${o}/1/messages.json?token=APP&user=USR&device=phone`);
    assert.equal(s.destination.url, `http://127.0.0.1:${s.receiver.port}/1/messages.json?token=***&user=***&device=phone`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.url, '/1/messages.json');
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(request.body));
    assert.deepEqual(form, {
      token: 'APP',
      user: 'USR',
      device: 'phone',
      title: '🚀 Deployed <v2>',
      message: 'Plan pro &amp; &lt;script&gt;\n\nregion: eu',
      html: '1',
      url: link(s.project, event.id),
      url_title: 'Open in Eventlog',
    });
  });

  it('teams: an Adaptive Card with the title, the tags as facts and the link', async (tc) => {
    const s = await setup(tc, 'teams', (o) => `${o}/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=S`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.url, '/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=S');
    const card = JSON.parse(request.body);
    assert.equal(card.type, 'message');
    const [attachment] = card.attachments;
    assert.equal(attachment.contentType, 'application/vnd.microsoft.card.adaptive');
    assert.equal(attachment.content.type, 'AdaptiveCard');
    assert.equal(attachment.content.version, '1.4');
    assert.equal(attachment.content.body[0].type, 'TextBlock');
    assert.equal(attachment.content.body[0].text, '🚀 Deployed <v2>');
    assert.deepEqual(attachment.content.body.at(-1), { type: 'FactSet', facts: [{ title: 'region', value: 'eu' }] });
    assert.deepEqual(attachment.content.actions, [{ type: 'Action.OpenUrl', title: 'Open in Eventlog', url: link(s.project, event.id) }]);
  });

  it('googlechat: {text} with the bold title, description, tags and link', async (tc) => {
    const s = await setup(tc, 'googlechat', (o) => `${o}/v1/spaces/AAA/messages?key=K&token=T`);
    assert.equal(s.destination.url, `http://127.0.0.1:${s.receiver.port}/v1/spaces/AAA/messages?key=K&token=***`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.url, '/v1/spaces/AAA/messages?key=K&token=T');
    assert.deepEqual(JSON.parse(request.body), { text: `*🚀 Deployed <v2>*\n\nPlan pro & <script>\n\nregion: eu\n\n${link(s.project, event.id)}` });
  });

  it('gotify: POST /message with X-Gotify-Key and markdown extras', async (tc) => {
    const s = await setup(tc, 'gotify', (o) => `${o}/gotify/message?token=AT`);
    assert.equal(s.destination.url, `http://127.0.0.1:${s.receiver.port}/gotify/message?token=***`);
    worker(tc);
    const event = await notify(s.org, s.project);
    const [request] = await s.receiver.waitFor(1);
    assert.equal(request?.url, '/gotify/message');
    assert.equal(request?.headers['x-gotify-key'], 'AT');
    const body = JSON.parse(request.body);
    assert.equal(body.title, '🚀 Deployed <v2>');
    assert.equal(body.priority, 5);
    assert.deepEqual(body.extras, {
      'client::display': { contentType: 'text/markdown' },
      'client::notification': { click: { url: link(s.project, event.id) } },
    });
  });

  it('matrix: PUT …/send/m.room.message/<txnId> with Bearer; a retry keeps the txnId, another delivery does not', async (tc) => {
    const s = await setup(tc, 'matrix', (o) => `${o}/_matrix/client/v3/rooms/!r:hs/send/m.room.message?access_token=MT`, [502, 200]);
    assert.match(s.destination.url, /\?access_token=\*\*\*$/);
    worker(tc);
    await notify(s.org, s.project);
    const [first, retry] = await s.receiver.waitFor(2);
    assert.equal(first?.method, 'PUT');
    assert.equal(first?.headers.authorization, 'Bearer MT');
    assert.match(first.url, /^\/_matrix\/client\/v3\/rooms\/!r:hs\/send\/m\.room\.message\/[A-Za-z0-9]+$/);
    assert.equal(retry?.url, first?.url, 'a retried attempt is the same transaction');
    const body = JSON.parse(first.body);
    assert.equal(body.msgtype, 'm.text');
    assert.equal(body.format, 'org.matrix.custom.html');
    assert.match(body.formatted_body, /<p><strong>🚀 Deployed &lt;v2&gt;<\/strong><\/p><p>Plan <b>pro<\/b> &amp; &lt;script&gt;<\/p>/);
    assert.match(body.body, /^🚀 Deployed <v2>\n\nPlan pro & <script>/);
    await notify(s.org, s.project);
    const [, , next] = await s.receiver.waitFor(3);
    assert.notEqual(next?.url, first?.url, 'another delivery is another transaction');
  });
});

describe('channels: validation, masking, errors', () => {
  it('refuses a URL that does not fit its format with 400 and creates nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const bad: Array<[string, string]> = [
      ['telegram', 'https://api.telegram.org/bot1:x/sendMessage'],
      ['telegram', 'https://api.telegram.org/sendMessage?chat_id=1'],
      ['ntfy', 'https://ntfy.sh/'],
      ['pushover', 'https://api.pushover.net/1/messages.json?user=U'],
      ['pushover', 'https://api.pushover.net/1/messages.json?token=T'],
      ['matrix', 'https://hs/_matrix/client/v3/rooms/!r/send/m.room.message'],
      ['gotify', 'https://gotify.example/message'],
      ['googlechat', 'https://chat.googleapis.com/v2/other'],
    ];
    for (const [format, url] of bad) {
      const reply = await org.post(`/api/projects/${project}/destinations`, { name: 'x', url, format });
      assert.equal(reply.status, 400, `${format} ${url}`);
      assert.equal(typeof reply.body.error, 'string');
    }
    assert.deepEqual((await org.get(`/api/projects/${project}/destinations`)).body, []);
  });

  it('a PATCH that sends *** back keeps the stored credential; a new one replaces it', async (tc) => {
    const s = await setup(tc, 'telegram', (o) => `${o}/botKEEP/sendMessage?chat_id=1`);
    const masked = s.destination.url.replace('chat_id=1', 'chat_id=2');
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/destinations/${s.destination.id}`,
      body: { url: masked },
      headers: { authorization: `Bearer ${s.org.key}` },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.url, masked);
    assert.equal((await s.org.post(`/api/destinations/${s.destination.id}/test`)).status, 200);
    assert.equal(s.receiver.received[0]?.url, '/botKEEP/sendMessage');
    assert.equal(JSON.parse(s.receiver.received[0].body).chat_id, '2');
    // A Test's sample is no event of the feed: its link is the project's feed.
    assert.ok((JSON.parse(s.receiver.received[0].body).text as string).endsWith(`\n\n${BASE}/app/p/${s.project}`));
    const audit = JSON.stringify((await s.org.get('/api/audit?limit=100')).body);
    assert.ok(!audit.includes('KEEP'), 'the audit log holds no credential');
  });

  it("a permanent refusal (Telegram 403) ends the delivery at once, in the service's words", async (tc) => {
    const answer = {
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}',
    };
    const s = await setup(tc, 'telegram', (o) => `${o}/botB/sendMessage?chat_id=1`, [answer]);
    worker(tc);
    await notify(s.org, s.project);
    await waitUntil(async () => (await log(s.org, s.destination.id))[0]?.status === 'failed', { timeoutMs: 10_000, message: 'the delivery to fail' });
    const [delivery] = await log(s.org, s.destination.id);
    assert.equal(delivery?.attempts.length, 1);
    assert.equal(delivery?.attempts[0]?.error, 'The service answered HTTP 403: Forbidden: bot was blocked by the user');
  });

  it('a 429 with Retry-After is honored: the next attempt waits at least that long', async (tc) => {
    const s = await setup(tc, 'gotify', (o) => `${o}/message?token=x`, [{ status: 429, headers: { 'retry-after': '1' } }, 200]);
    worker(tc);
    await notify(s.org, s.project);
    const [first, second] = await s.receiver.waitFor(2);
    assert.ok(second!.at - first!.at >= 950, `waited ${second!.at - first!.at} ms`);
    await waitUntil(async () => (await log(s.org, s.destination.id))[0]?.status === 'succeeded', { timeoutMs: 10_000, message: 'success' });
  });
});

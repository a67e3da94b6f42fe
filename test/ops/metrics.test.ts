import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startReceiver, startWorker } from '../destinations/support.ts';
import { useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

const TOKEN = 'scrape-secret-123';
const t = useTestApp({ METRICS_TOKEN: TOKEN, ALLOW_PRIVATE_WEBHOOK_URLS: '1' }, { ownDatabase: true });

async function scrape(): Promise<string> {
  const reply = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(reply.status, 200);
  assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return reply.body as string;
}

/** The value of one sample, e.g. sample(text, 'eventlog_events_created_total', { source: 'api' }). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('answers only to the bearer METRICS_TOKEN', async () => {
    assert.equal((await t.request({ method: 'GET', url: '/metrics' })).status, 401);
    const wrong = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.ok(wrong.body.error);
    const org = await t.org();
    // An API key is not the metrics token.
    assert.equal((await org.get('/metrics')).status, 401);
  });

  it('has every family of the contract, with default process and nodejs metrics', async () => {
    const text = await scrape();
    for (const family of [
      'eventlog_events_created_total counter',
      'eventlog_http_request_duration_seconds histogram',
      'eventlog_deliveries_total counter',
      'eventlog_delivery_queue_depth gauge',
      'eventlog_live_connections gauge',
      'eventlog_push_sent_total counter',
    ]) {
      assert.ok(text.includes(`# TYPE ${family}\n`), `missing ${family}`);
    }
    assert.match(text, /^process_cpu_user_seconds_total /m);
    assert.match(text, /^nodejs_heap_size_total_bytes /m);
    for (const source of ['api', 'dashboard', 'hook', 'import']) {
      assert.notEqual(sample(text, 'eventlog_events_created_total', { source }), undefined, source);
    }
    assert.ok(Number.isInteger(sample(text, 'eventlog_delivery_queue_depth')));
  });

  it('counts a created event by its source, and labels requests by route pattern without ids', async () => {
    const org = await t.org();
    const project = await org.project();
    const before = sample(await scrape(), 'eventlog_events_created_total', { source: 'api' }) ?? 0;
    const created = await org.post('/api/events', { project, category: 'ops', title: 'Metric moved' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await org.get(`/api/projects/${project}/events`);
    await t.request({ method: 'GET', url: `/no/such/${project}` });
    const text = await scrape();
    assert.equal(sample(text, 'eventlog_events_created_total', { source: 'api' }), before + 1);
    assert.ok(sample(text, 'eventlog_http_request_duration_seconds_count', { method: 'POST', route: '/api/events', status_code: '201' })! >= 1);
    assert.ok(sample(text, 'eventlog_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })! >= 1);
    assert.ok(!text.includes(project), 'a project id appears in the metrics');
    assert.ok(!text.includes(org.id), 'an organization id appears in the metrics');
    assert.ok(!/route="\/metrics"/.test(text), '/metrics counted itself');
  });

  it('counts a delivery that ended', async (tc) => {
    const org = await t.org();
    const project = await org.project();
    const receiver = await startReceiver([200]);
    tc.after(() => receiver.close());
    const destination = await org.post(`/api/projects/${project}/destinations`, { name: 'metrics', url: receiver.url, format: 'json' });
    assert.equal(destination.status, 201, JSON.stringify(destination.body));
    const before = sample(await scrape(), 'eventlog_deliveries_total', { outcome: 'succeeded' }) ?? 0;
    const worker = startWorker(t);
    tc.after(() => worker.stop());
    await org.post('/api/events', { project, category: 'ops', title: 'Deliver me', notify: true });
    await receiver.waitFor(1);
    await waitUntil(async () => sample(await scrape(), 'eventlog_deliveries_total', { outcome: 'succeeded' }) === before + 1, {
      timeoutMs: 10_000,
      message: 'the counter',
    });
  });
});

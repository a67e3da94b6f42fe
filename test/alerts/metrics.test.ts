import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AlertEngine } from '../../src/features/alerts/alertEngine.ts';
import { useTestApp } from '../helpers.ts';
import { waitUntil } from '../wait.ts';

// The engine takes every organization's work: this file has a database of its own.
const TOKEN = 'scrape-alerts-123';
const t = useTestApp({ METRICS_TOKEN: TOKEN }, { ownDatabase: true });

async function sample(pattern: RegExp): Promise<number> {
  const reply = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const match = pattern.exec(reply.body as string);
  return match ? Number(match[1]) : NaN;
}

describe('alerts: /metrics', () => {
  it('counts transitions by state and times the evaluation lag; the engine announces the alert events', async () => {
    const firingBefore = await sample(/^eventlog_alert_transitions_total\{state="firing"\} (\S+)$/m);
    const lagBefore = await sample(/^eventlog_alert_evaluation_lag_seconds_count (\S+)$/m);
    const org = await t.org();
    const project = await org.project();
    const created = await org.post(`/api/projects/${project}/alerts`, { name: 'Any', condition: { count: 'atLeast', threshold: 1, windowSeconds: 60 } });
    const announced: Array<{ type: string; notify?: boolean }> = [];
    const unsubscribe = t.services.bus.subscribe((announcement) => {
      if (announcement.type === 'event.created') announced.push(announcement);
    });
    const engine = new AlertEngine({ sql: t.services.sql, bus: t.services.bus, log: t.services.log, intervalSeconds: 5, timeZone: t.services.config.timeZone });
    await engine.runOnce();
    await org.post('/api/events', { project, category: 'c', title: 'e' });
    await engine.runOnce();
    assert.equal((await org.get(`/api/alerts/${created.body.id}`)).body.state, 'firing');
    assert.equal(await sample(/^eventlog_alert_transitions_total\{state="firing"\} (\S+)$/m), firingBefore + 1);
    assert.ok((await sample(/^eventlog_alert_evaluation_lag_seconds_count (\S+)$/m)) > lagBefore);
    try {
      await waitUntil(() => announced.some((a) => a.notify), { timeoutMs: 5000, intervalMs: 50, message: 'the firing event announced as a notify event' });
    } finally {
      unsubscribe();
    }
  });
});

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus families (extensions.md "Metrics"). One registry per process: the
 * counters are module state so a verb counts with one call and without a services dependency.
 * Labels never carry organization or project ids: a label value per tenant would make every
 * scrape grow with the number of tenants.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

type EventSource = 'api' | 'dashboard' | 'hook' | 'import';

const eventsCreated = new Counter({
  name: 'eventlog_events_created_total',
  help: 'Events written, by how they arrived',
  labelNames: ['source'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'eventlog_http_request_duration_seconds',
  help: 'HTTP request duration; route is the route pattern, "unmatched" for unknown paths',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const deliveries = new Counter({
  name: 'eventlog_deliveries_total',
  help: 'Outgoing webhook deliveries that ended, by outcome (Test deliveries not counted)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const pushSent = new Counter({
  name: 'eventlog_push_sent_total',
  help: 'Web push sends that ended, by outcome (gone: the subscription no longer exists)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const liveConnections = new Gauge({
  name: 'eventlog_live_connections',
  help: 'Open live feed (Server-Sent Events) connections of this process',
  registers: [registry],
});

let queueDepthSource: (() => Promise<number>) | undefined;

new Gauge({
  name: 'eventlog_delivery_queue_depth',
  help: 'Notify events not yet fanned out plus pending deliveries and push jobs (whole installation)',
  registers: [registry],
  async collect() {
    if (queueDepthSource) this.set(await queueDepthSource());
  },
});

// Every label value exists from the start, so a dashboard sees 0 rather than no series.
for (const source of ['api', 'dashboard', 'hook', 'import'] as const) eventsCreated.inc({ source }, 0);
for (const outcome of ['succeeded', 'failed'] as const) deliveries.inc({ outcome }, 0);
for (const outcome of ['sent', 'failed', 'gone'] as const) pushSent.inc({ outcome }, 0);

export const countEventsCreated = (source: EventSource, count = 1): void => {
  if (count > 0) eventsCreated.inc({ source }, count);
};
export const countDelivery = (outcome: 'succeeded' | 'failed'): void => deliveries.inc({ outcome });
export const countPush = (outcome: 'sent' | 'failed' | 'gone'): void => pushSent.inc({ outcome });
export const liveConnectionOpened = (): void => liveConnections.inc();
export const liveConnectionClosed = (): void => liveConnections.dec();

/** What the queue-depth gauge reads at each scrape (the last one set wins). */
export function setQueueDepthSource(source: () => Promise<number>): void {
  queueDepthSource = source;
}

// Alerts (features/alerts/): every transition once, and how late states followed what caused them.
const alertTransitions = new Counter({
  name: 'eventlog_alert_transitions_total',
  help: 'Alert transitions recorded, by the state entered',
  labelNames: ['state'] as const,
  registers: [registry],
});
for (const state of ['firing', 'ok'] as const) alertTransitions.inc({ state }, 0);

const alertLag = new Histogram({
  name: 'eventlog_alert_evaluation_lag_seconds',
  help: "Time from what made an alert's state due (new events, a window's edge, a change) to its evaluation",
  buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 60],
  registers: [registry],
});

export const countAlertTransition = (state: 'firing' | 'ok'): void => alertTransitions.inc({ state });
export const observeAlertLag = (seconds: number): void => alertLag.observe(Math.max(0, seconds));

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import type { ClaimedDelivery, Mail } from '../../ports.ts';
import { newId } from '../../lib/ids.ts';
import { PeriodicTask } from '../../lib/periodicTask.ts';
import { countDelivery } from '../../metrics.ts';
import { fanOutBatch } from './fanOutBatch.ts';
import { claimDuePushJobs } from './pushJobQueries.ts';
import { countQueued } from './queries.ts';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS } from './retryPolicy.ts';
import { WebPushChannel } from './webPushChannel.ts';
import type { DeliveryOutcome } from './attemptLog.ts';
import { EmailChannel } from './emailChannel.ts';
import { WebhookChannel } from './webhookChannel.ts';
import { claimDueDeliveries, pruneFinishedDeliveries } from './webhookQueries.ts';

interface DeliveryWorkerDeps {
  sql: Sql;
  bus: Bus;
  config: Config;
  log: FastifyBaseLogger;
  mailer: Mail;
}

export interface DeliveryWorkerOptions {
  /** Waits between attempts; the number of attempts is one more. Default 1 s, then 5 s. */
  retryDelaysMs?: readonly number[];
  /** Per attempt, connect to response. Default 10 s. */
  attemptTimeoutMs?: number;
  /**
   * The safety net under the bus wake-ups and the retry timers: how a process finds work another
   * one left (a lease run out, a lost announcement). Default 10 s: each look visits every shard of
   * a distributed database, so an idle installation looks rarely.
   */
  pollIntervalMs?: number;
  /** How long a claimed delivery stays this process's; must outlast an attempt. */
  leaseMs?: number;
  /** Sends in flight at once. */
  concurrency?: number;
  /** Extra certificate authority trusted for https receivers and push services. */
  ca?: string | Buffer;
  /** How long a finished delivery and its attempts stay in the log. Default 30 days. */
  keepFinishedMs?: number;
}

const FAN_OUT_BATCH = 100;
/**
 * Announcements arrive with every notify event written; a burst of them costs one pass, not one
 * each: under a steady stream, a pass every 200 ms rather than every 20, each a few statements per
 * announced organization (decision 233).
 */
const WAKE_DEBOUNCE_MS = 200;
const KEEP_FINISHED_MS = 30 * 24 * 3600_000;
/** The delivery log is pruned on the first pass and then at most this often. */
const PRUNE_EVERY_MS = 3600_000;
/** Rows per DELETE, so that pruning a long backlog never holds many locks at once. */
const PRUNE_BATCH = 1000;

/**
 * Moves notify events from the outbox to their receivers, durably, for every organization. A
 * fan-out pass turns each outbox row into one delivery per enabled destination whose category
 * filter takes the event and one push job per browser subscription (fanOutBatch.ts), in the
 * transaction that deletes the row (the delete is the claim). A send pass leases due deliveries
 * and pushes and hands each to its channel (webhookChannel.ts, emailChannel.ts, webPushChannel.ts), which sends it
 * and records the attempt with its consequence (retry later, done, failed). Several processes
 * can run this side by side: an outbox row is taken by whoever deletes it, and a delivery or push
 * by whoever sets its lease.
 *
 * Built by createServices but not started there: the server starts it; tests start their own.
 */
export class DeliveryWorker {
  readonly retryDelaysMs: readonly number[];
  readonly maxAttempts: number;
  readonly attemptTimeoutMs: number;
  readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly webhooks: WebhookChannel;
  private readonly emails: EmailChannel;
  private readonly pushes: WebPushChannel;
  private readonly keepFinishedMs: number;
  private nextPruneAt = 0;
  /**
   * When a pass must look for due deliveries and push jobs (the claims): at once after start, a
   * freed send slot or a fan-out that queued some; at a retry's or a group window's due time; at
   * least every poll interval. A pass woken only by announcements fans out and claims nothing
   * more (decision 233).
   */
  private claimsDueAt = 0;
  /** The first pass, and then one at least every poll interval, fans out and claims for every organization. */
  private nextPollAt = 0;
  /** Organizations whose notify events were announced since the last pass: a pass fans out theirs only. */
  private readonly announced = new Set<string>();
  private readonly pollIntervalMs: number;

  private readonly task: PeriodicTask;
  private stopped = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: DeliveryWorkerOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.maxAttempts = this.retryDelaysMs.length + 1;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.leaseMs = options.leaseMs ?? Math.max(60_000, this.attemptTimeoutMs * 3);
    this.pollIntervalMs = options.pollIntervalMs ?? 10_000;
    this.task = new PeriodicTask({
      run: () => this.runPass(),
      intervalMs: this.pollIntervalMs,
      onError: (error) => this.deps.log.error({ err: error }, 'delivery worker: a pass failed; the next poll retries'),
    });
    this.concurrency = options.concurrency ?? 16;
    this.keepFinishedMs = options.keepFinishedMs ?? KEEP_FINISHED_MS;
    const channel = {
      sql: deps.sql,
      log: deps.log,
      allowPrivate: deps.config.allowPrivateWebhookUrls,
      attemptTimeoutMs: this.attemptTimeoutMs,
      retryDelaysMs: this.retryDelaysMs,
      ca: options.ca,
    };
    this.webhooks = new WebhookChannel({ ...channel, bus: deps.bus });
    this.emails = new EmailChannel({ ...channel, bus: deps.bus, mailer: deps.mailer, baseUrl: deps.config.baseUrl });
    this.pushes = new WebPushChannel({ ...channel, baseUrl: deps.config.baseUrl });
  }

  start(): void {
    if (this.task.started) return;
    this.unsubscribe = this.deps.bus.subscribe((announcement) => {
      // Only notify events fill the outbox; the poll covers a lost announcement. Announcements
      // come in bursts: one pass within WAKE_DEBOUNCE_MS takes them together.
      if (announcement.type === 'event.created' && announcement.notify) {
        this.announced.add(announcement.organizationId);
        this.task.wake(WAKE_DEBOUNCE_MS);
      }
    });
    // Whatever a previous process left pending is due now: the first pass runs at once.
    this.task.start();
  }

  /** Stops claiming, then waits for the sends in flight to be recorded (each is time-bounded). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    await this.task.stop();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.pushes.close();
  }

  /** Notify events not yet fanned out plus pending deliveries and push jobs, of every organization. */
  queueDepth(): Promise<number> {
    return countQueued(this.deps.sql);
  }

  /** Runs a pass now, or right after the one running. A no-op unless started. */
  wake(): void {
    this.claimsDueAt = 0;
    this.task.wake();
  }

  /** A pass once a rescheduled attempt (or a group's window) is due; nothing when there is none. */
  private wakeIn(delayMs: number | null): void {
    if (delayMs === null) return;
    this.claimsDueAt = Math.min(this.claimsDueAt, Date.now() + delayMs);
    this.task.wakeIn(delayMs);
  }

  private async runPass(): Promise<void> {
    const polling = Date.now() >= this.nextPollAt;
    // A poll takes every organization's outbox: another process's rows, or a lost announcement's.
    const organizations = polling ? [undefined] : [...this.announced];
    this.announced.clear();
    for (const organizationId of organizations) await this.drainOutbox(organizationId);
    const now = Date.now();
    if (polling || now >= this.claimsDueAt) {
      // Cleared before the claims: a wake while they run asks for the next pass.
      this.claimsDueAt = Number.POSITIVE_INFINITY;
      this.nextPollAt = now + this.pollIntervalMs;
      while (!this.stopped && (await this.claimAndSend()));
    }
    if (Date.now() >= this.nextPruneAt) await this.pruneLog();
  }

  /** Keeps the delivery log bounded: finished deliveries past their keep time are deleted. */
  private async pruneLog(): Promise<void> {
    this.nextPruneAt = Date.now() + PRUNE_EVERY_MS;
    const prune = { olderThanMs: this.keepFinishedMs, limit: PRUNE_BATCH };
    while (!this.stopped && (await pruneFinishedDeliveries(this.deps.sql, prune)) === PRUNE_BATCH);
  }

  /** The outbox rows of one organization (or of all), a batch at a time until a batch comes back short. */
  private async drainOutbox(organizationId: string | undefined): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const { taken, queued, dueInMs } = await this.fanOut(organizationId);
      if (queued > 0) this.claimsDueAt = 0;
      this.wakeIn(dueInMs);
      if (taken < FAN_OUT_BATCH) return;
    }
  }

  /** One batch of outbox rows into deliveries and push jobs (see fanOutBatch). */
  private fanOut(organizationId: string | undefined): ReturnType<typeof fanOutBatch> {
    return fanOutBatch(this.deps.sql, {
      organizationId,
      limit: FAN_OUT_BATCH,
      maxAttempts: this.maxAttempts,
      baseUrl: this.deps.config.baseUrl,
      timeZone: this.deps.config.timeZone,
    });
  }

  /** Leases what is due, up to the free send slots, and starts sending. True if it filled them. */
  private async claimAndSend(): Promise<boolean> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return false;
    const claim = { leaseMs: this.leaseMs };
    const deliveries = await claimDueDeliveries(this.deps.sql, { ...claim, limit: free, leaseToken: newId(16) });
    // Counted here, not in deliver(): the Test action sends through deliver() too.
    for (const delivery of deliveries) this.track(this.deliver(delivery).then(countEnded));
    const room = free - deliveries.length;
    const pushes = room > 0 ? await claimDuePushJobs(this.deps.sql, { ...claim, limit: room, leaseToken: newId(16) }) : [];
    for (const job of pushes) this.track(this.pushes.send(job).then((retryInMs) => this.wakeIn(retryInMs)));
    return deliveries.length + pushes.length === free;
  }

  private track(work: Promise<unknown>): void {
    const tracked = work
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'delivery worker: recording an attempt failed'))
      .finally(() => {
        this.inFlight.delete(tracked);
        // A slot is free again: there may be more due.
        this.wake();
      });
    this.inFlight.add(tracked);
  }

  /**
   * Sends one leased delivery and records the attempt. Also the Test action's path, with a
   * delivery of a single attempt.
   */
  async deliver(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const channel = delivery.format === 'email' ? this.emails : this.webhooks;
    const { outcome, retryInMs } = await channel.send(delivery);
    this.wakeIn(retryInMs);
    return outcome;
  }
}

/** A delivery that ended (not one rescheduled for a retry) moves the deliveries counter. */
function countEnded(outcome: DeliveryOutcome): void {
  if (outcome.verdict.kind !== 'retry') countDelivery(outcome.verdict.kind === 'succeeded' ? 'succeeded' : 'failed');
}

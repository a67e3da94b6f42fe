import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { PeriodicTask } from '../../lib/periodicTask.ts';
import { countAlertTransition, observeAlertLag } from '../../metrics.ts';
import { announceCreated } from '../events/createEvent.ts';
import { dueOrganizations } from './engineQueries.ts';
import { evaluateOrganization } from './evaluateOrganization.ts';

/** Organizations taken per look for work. */
const ORGANIZATIONS_PER_PASS = 200;
/** Organizations evaluated at once by one process. */
const CONCURRENCY = 4;
/**
 * A burst of event announcements is answered by one pass this long after the first: a busy
 * organization is evaluated about once a second, well inside the 15 s the contract allows,
 * instead of once per burst of a few events.
 */
const WAKE_DELAY_MS = 1000;
/**
 * How long one organization's evaluation may hold a worker. Past it the worker moves on and the
 * evaluation finishes beside the others (a straggler), so an organization with slow alerts (big
 * windows over busy projects, a lock it waits for) never holds back another's evaluation nor the
 * next pass beyond the contract's 15 s (decision 200). Every statement of the background pool is
 * bounded too (30 s), so a straggler ends.
 */
const ORGANIZATION_BUDGET_MS = 2_000;
/** Stragglers at most; beyond them a worker waits for its own, so the pool keeps connections for the rest. */
const MAX_STRAGGLING = 2;

interface EngineOptions {
  sql: Sql;
  bus: Bus;
  log: FastifyBaseLogger;
  /** How often it looks for due organizations (ALERT_EVALUATION_INTERVAL_SECONDS). */
  intervalSeconds: number;
  /** The chart time zone: the day counts of the events alerts create are kept in it. */
  timeZone: string;
}

/**
 * Keeps every enabled alert's state following its events (docs/decisions/100-alert-engine.md).
 * Every server process runs one. Work is found by organization: an organization is due when one
 * of its alerts' windows reaches a threshold by time alone (or a deadline, a renotify, a change),
 * or when it has events the engine has not looked at; each is claimed by a lease on its own
 * schedule row, so processes share the work and never evaluate one organization together. The
 * bus's event announcements make a pass start at once for organizations it knows have alerts;
 * the periodic look finds whatever an announcement missed. Started by the server only.
 */
export class AlertEngine {
  private readonly task: PeriodicTask;
  private unsubscribe: (() => void) | undefined;
  /** Organizations this process has seen with enabled alerts: their events wake it. */
  private readonly watched = new Set<string>();
  /** Evaluations past their budget, still running beside the passes: skipped until they end. */
  private readonly straggling = new Map<string, Promise<void>>();
  /** Organizations with announced events since the last pass. */
  private readonly woken = new Set<string>();
  /** Due times this process learned from its own passes: it looks again at the earliest. */
  private dues: number[] = [];
  /**
   * When the next look for due organizations is owed (the interval, or the earliest due time).
   * Passes woken by announcements in between evaluate the woken organizations only: the look
   * visits every shard of a distributed database, and ingest wakes the engine every second.
   */
  private nextLookAt = 0;

  constructor(private readonly options: EngineOptions) {
    this.task = new PeriodicTask({
      run: () => this.runScheduledPass(),
      intervalMs: () => this.untilNextPass(),
      onError: (err) => options.log.warn({ err }, 'looking for due alerts failed; it will try again'),
    });
  }

  start(): void {
    this.unsubscribe = this.options.bus.subscribe((announcement) => {
      if (announcement.type === 'event.created' && this.watched.has(announcement.organizationId)) this.wake(announcement.organizationId);
    });
    this.task.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.task.stop();
    await Promise.all(this.straggling.values());
  }

  /**
   * Runs one pass over the woken organizations and, with `lookForDue` (tests call it so, to
   * avoid waiting for the timer), whatever else is due now; whether more is due.
   */
  async runOnce(lookForDue = true): Promise<boolean> {
    const woken = [...this.woken];
    this.woken.clear();
    const due = lookForDue ? await dueOrganizations(this.options.sql, new Date(), ORGANIZATIONS_PER_PASS) : [];
    const queue = [...new Set([...woken, ...due])];
    const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let organizationId = queue.shift(); organizationId !== undefined; organizationId = queue.shift()) {
        if (this.task.stopping) return;
        if (!this.straggling.has(organizationId)) await this.evaluateWithinBudget(organizationId);
      }
    });
    await Promise.all(workers);
    return due.length >= ORGANIZATIONS_PER_PASS;
  }

  private wake(organizationId: string): void {
    this.woken.add(organizationId);
    this.task.wake(WAKE_DELAY_MS);
  }

  /** Evaluates the organization, or leaves it running as a straggler once past its budget. */
  private async evaluateWithinBudget(organizationId: string): Promise<void> {
    const evaluation = this.evaluate(organizationId);
    if (this.straggling.size >= MAX_STRAGGLING) return evaluation;
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<'over'>((resolve) => {
      timer = setTimeout(() => resolve('over'), ORGANIZATION_BUDGET_MS);
    });
    const first = await Promise.race([evaluation.then(() => 'done' as const), overBudget]);
    clearTimeout(timer);
    if (first === 'over')
      this.straggling.set(
        organizationId,
        evaluation.finally(() => this.straggling.delete(organizationId)),
      );
  }

  /** Never rejects: a failure is logged and the organization is due again soon. */
  private async evaluate(organizationId: string): Promise<void> {
    try {
      const pass = await evaluateOrganization(this.options.sql, organizationId, this.options.timeZone);
      if (!pass) return;
      if (pass.active) this.watched.add(organizationId);
      else this.watched.delete(organizationId);
      if (pass.dueAt) this.dues.push(pass.dueAt.getTime());
      for (const { outcome, lagSeconds } of pass.outcomes) {
        if (lagSeconds !== null) observeAlertLag(lagSeconds);
        if (outcome.transition) countAlertTransition(outcome.transition);
        // After the commit, as every write announces: live feeds, and the delivery workers wake.
        if (outcome.event) announceCreated(this.options.bus, { organizationId, projectId: outcome.event.projectId, id: outcome.event.id, notify: true });
      }
    } catch (err) {
      this.options.log.warn({ err, organizationId }, 'evaluating alerts failed; it will try again');
    }
  }

  /** A pass of the timer: the woken organizations, and a look for due ones when it is owed. */
  private async runScheduledPass(): Promise<void> {
    const look = Date.now() >= this.nextLookAt;
    if (look) this.nextLookAt = Date.now() + this.options.intervalSeconds * 1000;
    let more = false;
    try {
      more = await this.runOnce(look);
    } finally {
      // A full pass leaves more due organizations: the next look is at once. Otherwise it is at the
      // earliest due time this process knows of, or after the interval (which finds what other
      // processes and lost announcements left).
      const now = Date.now();
      this.dues = this.dues.filter((due) => due > now);
      if (more) this.nextLookAt = now;
      if (this.dues.length > 0) this.nextLookAt = Math.min(this.nextLookAt, ...this.dues);
    }
  }

  /** The next pass: the next look, or sooner for organizations woken meanwhile. */
  private untilNextPass(): number {
    const untilLook = Math.max(0, this.nextLookAt - Date.now());
    return this.woken.size > 0 ? Math.min(WAKE_DELAY_MS, untilLook) : untilLook;
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { Mail } from '../../ports.ts';
import { type ClaimedMailJob, claimDueMailJobs, finishMailJob, retryMailJobLater } from './queries.ts';

interface MailQueueOptions {
  /** How a restarted process finds mail left behind; a process that enqueues wakes its own queue. */
  pollIntervalMs?: number;
  leaseMs?: number;
  /** Waits between attempts; the webhooks' schedule by default (1 s, then 5 s). */
  retryDelaysMs?: readonly number[];
}

/**
 * Sends the durable mail queue (`mail_jobs`: digests) for every organization: a pass leases due
 * rows, sends each once through the pooled transport, and deletes it when sent or given up (a
 * 4xx or a failed connection is tried again on the retry schedule, a 5xx is final). A process
 * killed mid-send leaves its lease to run out, and another process then makes the next attempt.
 * Idle, it costs one indexed look per poll (every 10 s by default).
 */
export class MailQueue {
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly retryDelaysMs: readonly number[];
  private poller: NodeJS.Timeout | undefined;
  private pass: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: { sql: Sql; mailer: Mail; log: FastifyBaseLogger },
    options: MailQueueOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.retryDelaysMs = options.retryDelaysMs ?? [1000, 5000];
  }

  start(): void {
    if (this.started || !this.deps.mailer.configured) return;
    this.started = true;
    this.poller = setInterval(() => this.wake(), this.pollIntervalMs);
    this.poller.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    await this.pass;
  }

  /** A pass now, or right after the one running. A no-op unless started. */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.runPass().finally(() => {
      this.pass = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async runPass(): Promise<void> {
    try {
      for (;;) {
        const jobs = await claimDueMailJobs(this.deps.sql, { limit: 10, leaseMs: this.leaseMs, leaseToken: newId(16) });
        await Promise.all(jobs.map((job) => this.send(job)));
        if (jobs.length < 10 || this.stopped) return;
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'mail queue: a pass failed; the next poll retries');
    }
  }

  private async send(job: ClaimedMailJob): Promise<void> {
    const result = await this.deps.mailer.send({ to: job.recipients, subject: job.subject, text: job.text, html: job.html });
    const attempt = job.attempts + 1;
    if (result.error === null) return finishMailJob(this.deps.sql, job);
    const delayMs = this.retryDelaysMs[attempt - 1];
    if (result.retryable && attempt < job.maxAttempts && delayMs !== undefined) {
      await retryMailJobLater(this.deps.sql, { ...job, delayMs });
      const timer = setTimeout(() => this.wake(), delayMs);
      timer.unref();
      return;
    }
    this.deps.log.warn({ organizationId: job.organizationId, kind: job.kind, status: result.status, error: result.error }, 'mail queue: a mail was given up');
    return finishMailJob(this.deps.sql, job);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { PeriodicTask } from '../../lib/periodicTask.ts';
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
  private readonly leaseMs: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly task: PeriodicTask;

  constructor(
    private readonly deps: { sql: Sql; mailer: Mail; log: FastifyBaseLogger },
    options: MailQueueOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 120_000;
    this.retryDelaysMs = options.retryDelaysMs ?? [1000, 5000];
    this.task = new PeriodicTask({
      run: () => this.runPass(),
      intervalMs: options.pollIntervalMs ?? 10_000,
      onError: (error) => this.deps.log.error({ err: error }, 'mail queue: a pass failed; the next poll retries'),
    });
  }

  /** Without SMTP there is nothing to send, and the queue does not start. */
  start(): void {
    if (this.deps.mailer.configured) this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** A pass now, or right after the one running. A no-op unless started. */
  wake(): void {
    this.task.wake();
  }

  private async runPass(): Promise<void> {
    for (;;) {
      const jobs = await claimDueMailJobs(this.deps.sql, { limit: 10, leaseMs: this.leaseMs, leaseToken: newId(16) });
      await Promise.all(jobs.map((job) => this.send(job)));
      if (jobs.length < 10 || this.task.stopping) return;
    }
  }

  private async send(job: ClaimedMailJob): Promise<void> {
    const result = await this.deps.mailer.send({ to: job.recipients, subject: job.subject, text: job.text, html: job.html });
    const attempt = job.attempts + 1;
    if (result.error === null) return finishMailJob(this.deps.sql, job);
    const delayMs = this.retryDelaysMs[attempt - 1];
    if (result.retryable && attempt < job.maxAttempts && delayMs !== undefined) {
      await retryMailJobLater(this.deps.sql, { ...job, delayMs });
      this.task.wakeIn(delayMs);
      return;
    }
    this.deps.log.warn({ organizationId: job.organizationId, kind: job.kind, status: result.status, error: result.error }, 'mail queue: a mail was given up');
    return finishMailJob(this.deps.sql, job);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import { type Sql, withTransaction } from '../../db/client.ts';
import { type BackgroundJob, PeriodicTask } from '../../lib/periodicTask.ts';
import { queueMail } from '../email/queueMail.ts';
import { composeDigest } from './composeDigest.ts';
import { type DueDigest, claimDueDigest, findDueDigests } from './queries.ts';
import { nextDigestAt, periodMs } from './schedule.ts';

const BATCH = 50;
/** Attempts a digest mail gets (as a webhook delivery). */
const MAX_ATTEMPTS = 3;

interface SchedulerDeps {
  sql: Sql;
  baseUrl: string;
  log: FastifyBaseLogger;
  /** Told when a pass enqueued mail, so this process sends it at once. */
  enqueued: () => void;
}

/**
 * Sends each member's digest once per period, however many processes run it and whenever they
 * restart. A member's next digest is a moment in `digest_settings.next_due_at`. Once a minute a
 * pass looks for members whose moment has come (one indexed look, not a scan per organization),
 * and for each runs one transaction: a compare-and-set UPDATE moves next_due_at to the following
 * moment, and only when it did (no other process got there first), the digest covering the
 * period that ended at the due moment is composed and put in the durable mail queue. A crash
 * before the commit leaves the digest due for the next pass; after it, the mail is queued.
 */
export class DigestScheduler implements BackgroundJob {
  private readonly task: PeriodicTask<number>;
  private stopped = false;

  constructor(
    private readonly deps: SchedulerDeps,
    intervalMs = 60_000,
  ) {
    this.task = new PeriodicTask({ run: () => this.pass(), intervalMs, onError: (err) => deps.log.error({ err }, 'digests: a pass failed') });
  }

  start(): void {
    if (!this.stopped) this.task.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  /** One pass (tests call it directly), never beside a scheduled one. Answers how many digests this process enqueued. */
  runOnce(): Promise<number> {
    return this.task.runNow();
  }

  private async pass(): Promise<number> {
    let enqueued = 0;
    try {
      for (;;) {
        const due = await findDueDigests(this.deps.sql, BATCH);
        let claimed = 0;
        for (const digest of due) if (!this.stopped && (await this.enqueue(digest))) claimed++;
        enqueued += claimed;
        if (due.length < BATCH || claimed === 0 || this.stopped) break;
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'digests: a pass failed; the next one retries');
    }
    if (enqueued > 0) this.deps.enqueued();
    return enqueued;
  }

  private enqueue(due: DueDigest): Promise<boolean> {
    // The moment after the one due, not after now: a digest due while every process was down is
    // sent once at the restart, and the schedule goes on from the next moment after now.
    const nextDueAt = nextDigestAt(due, new Date(Math.max(Date.now(), due.dueAt.getTime())));
    return withTransaction(this.deps.sql, async (tx) => {
      if (!(await claimDueDigest(tx, { ...due, nextDueAt }))) return false;
      const from = new Date(due.dueAt.getTime() - periodMs(due.frequency));
      const mail = await composeDigest(tx, { ...due, settings: due, from, to: due.dueAt, baseUrl: this.deps.baseUrl, preview: false });
      if (!mail) return false;
      await queueMail(tx, { organizationId: due.organizationId, kind: 'digest', mail, maxAttempts: MAX_ATTEMPTS });
      return true;
    });
  }
}

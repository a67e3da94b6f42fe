import type { FastifyBaseLogger } from 'fastify';
import { type Sql, withTransaction } from '../../db/client.ts';
import { type BackgroundJob, PeriodicTask } from '../../lib/periodicTask.ts';
import { queuePushJobs } from '../delivery/queuePushJobs.ts';
import { queueMail } from '../email/queueMail.ts';
import { type HoldingMember, pruneReleased, releaseHeld, selectHoldingMembers, selectMemberBrowsers } from './queries.ts';
import { isHolding } from './quietHours.ts';
import { summaryMail, summaryPush } from './summaryMessage.ts';

const BATCH = 200;
const MAX_ATTEMPTS = 5;
/** Released rows stay for the weekly digest to list them, then go. */
const KEEP_RELEASED_MS = 8 * 86_400_000;

interface SummaryDeps {
  sql: Sql;
  baseUrl: string;
  log: FastifyBaseLogger;
  /** Told when a pass queued something, so this process sends it at once. */
  queued: () => void;
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * Sends each member one summary per medium when their notifications stop being held: the quiet
 * window ended, the snooze ran out, or they lifted either. Every few seconds a pass looks for
 * members with held rows (a partial index) and checks their preferences against now; for each
 * member no longer held, one transaction claims the held rows (FOR UPDATE SKIP LOCKED, so two
 * processes never both summarise a row) and queues the push jobs and the mail. Held rows are in
 * the database, so a restart loses nothing (decision 205).
 */
export class HeldSummaries implements BackgroundJob {
  private readonly task: PeriodicTask<number>;
  private stopped = false;

  constructor(
    private readonly deps: SummaryDeps,
    intervalMs = 5_000,
  ) {
    // sweep() logs its own failures.
    this.task = new PeriodicTask({ run: () => this.sweep(), intervalMs, onError: () => {} });
  }

  start(): void {
    if (!this.stopped) this.task.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  /** One pass (tests call it directly), never beside a scheduled one. Answers how many members got a summary from this process. */
  runOnce(): Promise<number> {
    return this.task.runNow();
  }

  private async sweep(): Promise<number> {
    const now = this.deps.now?.() ?? new Date();
    let sent = 0;
    try {
      const members = await selectHoldingMembers(this.deps.sql, BATCH);
      for (const member of members) {
        if (this.stopped) break;
        if (isHolding(member, now)) continue;
        if (await this.summarise(member, now)) sent++;
      }
      await pruneReleased(this.deps.sql, new Date(now.getTime() - KEEP_RELEASED_MS));
    } catch (error) {
      this.deps.log.error({ err: error }, 'notification summaries: a pass failed; the next one retries');
    }
    if (sent > 0) this.deps.queued();
    return sent;
  }

  private summarise(member: HoldingMember, now: Date): Promise<boolean> {
    return withTransaction(this.deps.sql, async (tx) => {
      const rows = await releaseHeld(tx, member.organizationId, member.userId, now);
      if (rows.length === 0) return false;
      const newest = rows.reduce((a, b) => (b.heldAt > a.heldAt || (b.heldAt.getTime() === a.heldAt.getTime() && b.eventId > a.eventId) ? b : a));
      const payload = summaryPush(rows, this.deps.baseUrl);
      const browsers = await selectMemberBrowsers(tx, member.organizationId, member.userId);
      await queuePushJobs(
        tx,
        browsers.map((browser) => ({
          organizationId: member.organizationId,
          subscriptionId: browser.id,
          eventId: newest.eventId,
          payload,
          maxAttempts: MAX_ATTEMPTS,
        })),
      );
      if (member.email) {
        await queueMail(tx, {
          organizationId: member.organizationId,
          kind: 'notification-summary',
          mail: { to: [member.address], ...summaryMail(rows, this.deps.baseUrl) },
          maxAttempts: MAX_ATTEMPTS,
        });
      }
      return true;
    });
  }
}

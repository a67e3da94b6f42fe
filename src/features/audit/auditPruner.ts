import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../../db/client.ts';
import { type BackgroundJob, PeriodicTask } from '../../lib/periodicTask.ts';
import { pruneBrowserEventCounts } from '../keys/browserCountPruning.ts';
import { deleteExpiredAuditEntries } from './queries.ts';

/** extensions.md, "Audit log": entries are kept 365 days. */
const KEEP_DAYS = 365;
const DAY_MS = 86_400_000;
/** Browser keys count events per minute; a window is useless once it has ended. */
const COUNT_WINDOW_KEEP_MS = 5 * 60_000;
const INTERVAL_MS = 60 * 60_000;

/**
 * Deletes audit entries older than 365 days, and the ended windows of browser keys' event counts,
 * once an hour: two indexed range deletes over every organization, so an idle installation costs
 * two empty index probes an hour. Several processes may run one each (a second delete finds
 * nothing). Started by the server only.
 */
export class AuditPruner implements BackgroundJob {
  private readonly task: PeriodicTask;

  constructor(
    private readonly sql: Sql,
    log: FastifyBaseLogger,
  ) {
    this.task = new PeriodicTask({
      run: () => this.runOnce(),
      intervalMs: INTERVAL_MS,
      firstDelayMs: 5000,
      onError: (err) => log.error({ err }, 'pruning the audit log failed'),
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One pass: how many audit entries it deleted. */
  async runOnce(now = Date.now()): Promise<number> {
    const deleted = await deleteExpiredAuditEntries(this.sql, new Date(now - KEEP_DAYS * DAY_MS));
    await pruneBrowserEventCounts(this.sql, new Date(now - COUNT_WINDOW_KEEP_MS));
    return deleted;
  }
}

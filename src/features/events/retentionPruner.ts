import type { FastifyBaseLogger } from 'fastify';
import { type Sql, withTransaction } from '../../db/client.ts';
import { type BackgroundJob, PeriodicTask } from '../../lib/periodicTask.ts';
import { projectsWithRetention, pruneEvents, tryLockProjectForPruning } from './deleteQueries.ts';

/** Events deleted per transaction: short row locks, so ingest never waits long on a rollup row. */
const PRUNE_BATCH = 1000;

/**
 * Deletes events older than their project's retention period, every `intervalSeconds`, in
 * batches, as deleting them one by one would (feed, search, charts, users, export). Several
 * server processes may run one each: a project is pruned by one of them at a time (an advisory
 * lock that the others skip rather than wait for), and rows are taken with SKIP LOCKED.
 * Started by the server only. See docs/decisions/050-retention.md.
 */
export class RetentionPruner implements BackgroundJob {
  private readonly task: PeriodicTask;

  constructor(
    private readonly sql: Sql,
    private readonly options: { intervalSeconds: number; timeZone: string; log: FastifyBaseLogger },
  ) {
    this.task = new PeriodicTask({
      run: () => this.runOnce(true),
      intervalMs: options.intervalSeconds * 1000,
      firstDelayMs: 1000,
      onError: (err) => options.log.error({ err }, 'retention pruning failed'),
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One pass over every project with a retention period; how many events it deleted. Scheduled, it ends early at a batch boundary once stopped. */
  async runOnce(scheduled = false): Promise<number> {
    let pruned = 0;
    for (const project of await projectsWithRetention(this.sql)) {
      for (;;) {
        if (scheduled && this.task.stopping) return pruned;
        const deleted = await withTransaction(this.sql, async (tx) => {
          if (!(await tryLockProjectForPruning(tx, project.organizationId, project.projectId))) return 0;
          return pruneEvents(tx, { ...project, batch: PRUNE_BATCH, timeZone: this.options.timeZone });
        });
        pruned += deleted;
        if (deleted < PRUNE_BATCH) break;
      }
    }
    return pruned;
  }
}

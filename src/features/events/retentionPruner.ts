import type { FastifyBaseLogger } from 'fastify';
import { type Sql, withTransaction } from '../../db/client.ts';
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
export class RetentionPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly sql: Sql,
    private readonly options: { intervalSeconds: number; timeZone: string; log: FastifyBaseLogger },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every project with a retention period; how many events it deleted. */
  async runOnce(): Promise<number> {
    let pruned = 0;
    for (const project of await projectsWithRetention(this.sql)) {
      for (;;) {
        if (this.stopped && this.timer !== undefined) return pruned;
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

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((err: unknown) => this.options.log.error({ err }, 'retention pruning failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalSeconds * 1000);
        });
    }, delayMs);
    this.timer.unref();
  }
}

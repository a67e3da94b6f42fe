import type { FastifyBaseLogger } from 'fastify';
import { type Db, type Sql, withTransaction } from '../../db/client.ts';
import { type BackgroundJob, PeriodicTask } from '../../lib/periodicTask.ts';
import { purgeProjectEvents } from '../events/purgeProjectEvents.ts';
import { deleteCredentials } from '../organizations/credentials.ts';
import { deleteProjectRow, listDeletedProjects, selectHookTokenHashes } from './queries.ts';

const BATCH = 1000;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Removes deleted projects' rows in the background (docs/decisions/052-project-delete.md): the
 * events in batches of a thousand, each its own short transaction so ingest and other tenants
 * never wait on one huge delete, then the project row, whose foreign keys take the rest. The
 * delete verb starts a purge at once; a periodic sweep finishes any a crash or restart cut short.
 */
export class ProjectPurger implements BackgroundJob {
  private readonly running = new Map<string, Promise<void>>();
  private readonly task: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
  ) {
    // sweep() logs its own failures.
    this.task = new PeriodicTask({ run: () => this.sweep(), intervalMs: SWEEP_INTERVAL_MS, onError: () => {} });
  }

  /** Purges one deleted project; a second call while one runs joins it. Never rejects. */
  purge(organizationId: string, projectId: string): Promise<void> {
    const key = `${organizationId}/${projectId}`;
    let run = this.running.get(key);
    if (!run) {
      run = this.run(organizationId, projectId)
        .catch((err: unknown) => this.log.error({ err, organizationId, projectId }, 'project purge failed; the sweep retries it'))
        .finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }

  /** Starts the periodic sweep (the server does; commands and tests need not). */
  start(): void {
    this.stopped = false;
    this.task.start();
  }

  /** Ends the sweep and waits for purges in progress to reach a batch boundary. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
    await Promise.all(this.running.values());
  }

  /** Purges every project marked deleted (oldest first). */
  async sweep(): Promise<void> {
    try {
      const pending = await listDeletedProjects(this.sql, 100);
      for (const { organizationId, projectId } of pending) {
        if (this.stopped) return;
        await this.purge(organizationId, projectId);
      }
    } catch (err) {
      this.log.warn({ err }, 'project purge sweep failed');
    }
  }

  private async run(organizationId: string, projectId: string): Promise<void> {
    while (!this.stopped) {
      const deleted = await purgeProjectEvents(this.sql, organizationId, projectId, BATCH);
      if (deleted < BATCH) break;
    }
    if (!this.stopped) await withTransaction(this.sql, (tx) => removeProjectRow(tx, organizationId, projectId));
  }
}

/** The project row (its foreign keys take the rest) and its hooks' token routing rows. */
async function removeProjectRow(tx: Db, organizationId: string, projectId: string): Promise<void> {
  const tokenHashes = await selectHookTokenHashes(tx, organizationId, projectId);
  if (!(await deleteProjectRow(tx, organizationId, projectId))) return;
  // One statement per hook, each routed to its hash's shard; a project has a handful of hooks.
  for (const tokenHash of tokenHashes) await deleteCredentials(tx, 'hook', [tokenHash]);
}

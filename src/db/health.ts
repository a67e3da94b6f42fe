import { isDatabaseUnavailable } from '../lib/databaseErrors.ts';
import type { Sql } from './client.ts';

/** How long `select 1` may take before the database counts as unable to answer. */
const PROBE_TIMEOUT_MS = 1000;
/**
 * Probes that must time out in a row before requests are refused: one slow `select 1` on a busy
 * machine is not an outage. A refused or dropped connection counts at once.
 */
const TIMEOUTS_TO_GO_DOWN = 3;

/** How often the database is probed in the background while it is up, and while it is down. */
const PROBE_INTERVAL_MS = 1000;

/**
 * Whether the database answers, probed in the background (`select 1` within PROBE_TIMEOUT_MS)
 * and cached, so that readiness (/healthz) is honest and requests fail fast while it is down
 * instead of each waiting for a connection. A failed query that says the database is gone marks
 * it down at once. `onRecovered` runs when it answers again (the bus listens anew).
 */
export class DatabaseHealth {
  private up = true;
  private timeoutsInARow = 0;
  private lastError = '';
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<boolean> | undefined;
  private readonly recoveredListeners = new Set<() => void>();

  constructor(private readonly sql: Sql) {}

  get ready(): boolean {
    return this.up;
  }

  get reason(): string {
    return this.lastError;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  onRecovered(listener: () => void): () => void {
    this.recoveredListeners.add(listener);
    return () => this.recoveredListeners.delete(listener);
  }

  /** A query failed because the database is gone: stop sending requests to it until a probe answers. */
  reportFailure(error: unknown): void {
    if (isDatabaseUnavailable(error) && !isTimeout(error)) this.markDown(error);
  }

  /** One `select 1`, never longer than PROBE_TIMEOUT_MS; concurrent callers share it. */
  probe(): Promise<boolean> {
    this.probing ??= this.runProbe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async runProbe(): Promise<boolean> {
    const query = this.sql`select 1`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' })), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([query.execute(), timeout]);
      this.markUp();
      return true;
    } catch (error) {
      query.cancel();
      if (!isTimeout(error)) this.markDown(error);
      else if (++this.timeoutsInARow >= TIMEOUTS_TO_GO_DOWN) this.markDown(error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private markUp(): void {
    this.timeoutsInARow = 0;
    if (this.up) return;
    this.up = true;
    this.lastError = '';
    for (const listener of this.recoveredListeners) listener();
  }

  private markDown(error: unknown): void {
    this.up = false;
    this.lastError = error instanceof Error ? error.message : String(error);
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ETIMEDOUT' || code === 'CONNECT_TIMEOUT' || code === '57014';
}

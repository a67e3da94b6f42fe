/** What the server starts after it listens and stops before it closes the database (src/backgroundJobs.ts). */
export interface BackgroundJob {
  start(): void;
  /** Ends the schedule and waits for the work in flight. */
  stop(): Promise<void>;
}

interface PeriodicTaskOptions {
  /** One pass of the work. A pass never overlaps the next: the next is scheduled when it ends. */
  run: () => Promise<unknown>;
  intervalMs: number;
  /** The first pass's delay after start (default: at once). */
  firstDelayMs?: number;
  /** A pass that throws is logged here; the schedule goes on. */
  onError: (err: unknown) => void;
}

/**
 * A pass of work every `intervalMs`, one at a time, after the previous one ended: the timer of the
 * background loops, written once. The timer never keeps the process alive, and `stop` waits for
 * the pass in flight. `stopping` lets a long pass end early at a batch boundary.
 */
export class PeriodicTask implements BackgroundJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly options: PeriodicTaskOptions) {}

  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.options.firstDelayMs ?? 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.options
        .run()
        .then(() => undefined, this.options.onError)
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}

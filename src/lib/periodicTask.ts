/** What the server starts after it listens and stops before it closes the database (src/backgroundJobs.ts). */
export interface BackgroundJob {
  start(): void;
  /** Ends the schedule and waits for the work in flight. */
  stop(): Promise<void>;
}

interface PeriodicTaskOptions<T> {
  /** One pass of the work. A pass never overlaps the next: the next is scheduled when it ends. */
  run: () => Promise<T>;
  /**
   * The wait after a pass before the next one. A function when the pass itself learns when it is
   * next needed (the search indexer's sweep, the alert engine's due times).
   */
  intervalMs: number | (() => number);
  /** The first pass's delay after start (default: at once). */
  firstDelayMs?: number;
  /** A pass that throws is logged here; the schedule goes on. */
  onError: (err: unknown) => void;
}

/**
 * A pass of work every `intervalMs`, one at a time, after the previous one ended: the timer of
 * every background loop, written once. The loops that the bus or their own work can wake (the
 * delivery worker, the mail queue, the search indexer, the alert engine) ask for an earlier pass
 * with `wake` (work is waiting now) or `wakeIn` (work becomes due later: a retry). The timer never
 * keeps the process alive, and `stop` waits for the pass in flight; `stopping` lets a long pass
 * end early at a batch boundary.
 */
export class PeriodicTask<T = unknown> implements BackgroundJob {
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  private timerAt = Infinity;
  private running: Promise<void> | undefined;
  private state: 'idle' | 'started' | 'stopping' = 'idle';
  /** A pass asked for while one runs: at the latest this long after it ends. */
  private afterRunningMs: number | undefined;
  /** Times work becomes due (wakeIn); each is kept until a pass starts after it. */
  private dueTimes: number[] = [];

  constructor(private readonly options: PeriodicTaskOptions<T>) {}

  /** Stop was asked after a start: a long pass should end at its next batch boundary. */
  get stopping(): boolean {
    return this.state === 'stopping';
  }

  get started(): boolean {
    return this.state === 'started';
  }

  start(): void {
    if (this.state === 'started') return;
    this.state = 'started';
    this.arm(Date.now() + (this.options.firstDelayMs ?? 0));
  }

  async stop(): Promise<void> {
    if (this.state === 'started') this.state = 'stopping';
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.dueTimes = [];
    await this.running;
  }

  /**
   * Work is waiting now: a pass within `withinMs` (at once by default), or, when one is running,
   * right after it (that pass may have looked before the work arrived). Never puts off a pass
   * already armed sooner. A no-op unless started.
   */
  wake(withinMs = 0): void {
    if (this.state !== 'started') return;
    if (this.running) {
      this.afterRunningMs = Math.min(this.afterRunningMs ?? Infinity, withinMs);
      return;
    }
    const at = Date.now() + withinMs;
    if (at < this.timerAt) this.arm(at);
  }

  /** Work becomes due in `delayMs` (null: none): a pass that starts after then, whatever runs meanwhile. */
  wakeIn(delayMs: number | null): void {
    if (delayMs === null || this.state !== 'started') return;
    const at = Date.now() + delayMs;
    this.dueTimes.push(at);
    if (!this.running && at < this.timerAt) this.arm(at);
  }

  /**
   * One pass now, outside the schedule (tests; a pass asked for by hand), answering its result or
   * throwing its error: it starts after the pass in flight and a scheduled pass waits for it, so
   * passes never overlap. Works whether or not the schedule is started.
   */
  async runNow(): Promise<T> {
    while (this.running) await this.running;
    const pass = this.options.run();
    const startedAt = Date.now();
    this.running = pass
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.running = undefined;
        this.armAfterPass(startedAt);
      });
    return pass;
  }

  private arm(at: number): void {
    if (this.state !== 'started') return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.runPass(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private runPass(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.running) {
      // A pass run by hand is in flight: this one follows it.
      this.afterRunningMs = 0;
      return;
    }
    const startedAt = Date.now();
    this.running = this.options
      .run()
      .then(() => undefined, this.options.onError)
      .finally(() => {
        this.running = undefined;
        this.armAfterPass(startedAt);
      });
  }

  /** The interval, or sooner when a wake or a due time asks for it. */
  private armAfterPass(passStartedAt: number): void {
    const now = Date.now();
    const { intervalMs } = this.options;
    let next = now + (typeof intervalMs === 'number' ? intervalMs : intervalMs());
    if (this.afterRunningMs !== undefined) next = Math.min(next, now + this.afterRunningMs);
    this.afterRunningMs = undefined;
    // A due time the pass started after was served by it.
    this.dueTimes = this.dueTimes.filter((at) => at > passStartedAt);
    for (const at of this.dueTimes) next = Math.min(next, at);
    this.arm(next);
  }
}
